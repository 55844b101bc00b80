/// The state of the push outbox, for health and metrics.
public struct OutboxStats: Sendable, Hashable {
    /// Rows waiting or in flight.
    public let queued: Int
    /// Rows claimed by an instance whose lease has not lapsed.
    public let inFlight: Int
    /// How long the oldest row has waited, or `nil` when the outbox is empty.
    public let oldestPendingAge: Duration?
    /// Rows whose last attempt failed, by the reason reported to ``WalletStore/retryPush(_:after:error:)``.
    public let failuresByReason: [String: Int]
}
