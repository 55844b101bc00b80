/// What `GET /api/v1/push/stats` answers (and `passwright push stats` prints): the outbox and this
/// instance's push counters.
public struct PushStats: WireValue {
    public static let schemaName = "PushStats"

    /// Pushes waiting or in flight.
    public var queued: Int
    /// Pushes claimed by an instance whose lease has not lapsed.
    public var inFlight: Int
    /// How long the oldest push has waited; `null` when the outbox is empty.
    @NullWhenAbsent public var oldestPendingSeconds: Int64?
    /// Pushes APNs accepted since this instance started.
    public var sent: Int
    /// This instance's failures since start, by APNs reason.
    public var failuresByReason: [String: Int]
    /// Pushes waiting whose last attempt failed, by that failure's reason.
    public var pendingByLastError: [String: Int]
    /// Pass types whose APNs identity was refused, with the reason.
    public var stoppedIdentities: [String: String]
    /// The configured send rate, a ceiling; `null` when there is none.
    @NullWhenAbsent public var ratePerSecond: Int?
    /// Seconds to drain the outbox at the pace this instance sent at over the last 10 seconds (below
    /// the rate whenever signing is slower; the rate itself before it has sent anything), with one
    /// instance sending (several share the outbox and go faster); `null` with neither.
    @NullWhenAbsent public var etaSeconds: Int?

    /// Creates the value from its members.
    public init(
        queued: Int, inFlight: Int, oldestPendingSeconds: Int64?, sent: Int, failuresByReason: [String: Int],
        pendingByLastError: [String: Int], stoppedIdentities: [String: String], ratePerSecond: Int?, etaSeconds: Int?
    ) {
        self.queued = queued
        self.inFlight = inFlight
        self.oldestPendingSeconds = oldestPendingSeconds
        self.sent = sent
        self.failuresByReason = failuresByReason
        self.pendingByLastError = pendingByLastError
        self.stoppedIdentities = stoppedIdentities
        self.ratePerSecond = ratePerSecond
        self.etaSeconds = etaSeconds
    }
}
