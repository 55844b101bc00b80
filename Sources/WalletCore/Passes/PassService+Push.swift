import PassModel
import WalletStore

/// Operators' push controls and the outbox state for stats and metrics.
public extension PassService {
    /// Queues a push to every device registered for the pass without changing it (an operator
    /// re-waking devices); the rows queued, or `nil` when no pass has the key (HTTP 404).
    func queuePushes(for key: PassKey, origin: WriteOrigin) async throws -> Int? {
        guard try await store.pass(key) != nil else { return nil }
        return try await store.enqueuePushes(for: key, origin: origin)
    }

    /// Queue depth, rows in flight, the oldest wait and the pending failures by reason.
    func outboxStats() async throws -> OutboxStats {
        try await store.outboxStats()
    }
}
