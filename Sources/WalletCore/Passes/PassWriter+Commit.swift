import PassModel
import Foundation
import Storage
import WalletStore

/// Carrying plans out: batches of compare-and-swap writes, a conflicting pass planned again from its
/// new row, the same bound on attempts for one pass or a million.
extension PassWriter {
    /// What a series of batches came to.
    struct Landed: Sendable {
        /// The passes written now, as written.
        var written: [StoredPass] = []
        /// The passes whose write landed without changing the pass (a hold stored or dropped, or nothing).
        var unchanged: [StoredPass] = []
        /// The plans that landed, by pass.
        var plans: [PassKey: Plan] = [:]
        /// Outbox rows queued or coalesced.
        var pushesQueued = 0
        /// Transactions run (batches written, retries included).
        var batches = 0
        /// The longest of them: the longest any write of the series held its locks.
        var longestBatch = Duration.zero
        /// How many landed plans hold their edit.
        var held: Int { plans.values.count { $0.editHeld } }
    }

    /// Writes `plans` in batches of ``batchSize``; a pass that changed meanwhile (its tag or its held
    /// change) is read again and planned again with `replan`, up to ``maximumAttempts`` rounds.
    func commit(
        _ plans: [Plan], replan: @escaping @Sendable (StoredPass, PassHold?) async throws -> Plan
    ) async throws -> Landed {
        var landed = Landed()
        var pending = plans.filter { $0.request != nil }
        landed.plans.reserveCapacity(pending.count)
        for attempt in 1...maximumAttempts {
            var conflicts: [StoredPass] = []
            for batch in pending.batches(of: Self.batchSize) {
                let started = ContinuousClock.now
                let result = try await store.writePasses(batch.compactMap(\.request))
                landed.batches += 1
                landed.longestBatch = max(landed.longestBatch, ContinuousClock.now - started)
                landed.written += result.written
                landed.unchanged += result.unchanged
                landed.pushesQueued += result.pushesQueued
                let done = Set(result.written.map(\.key)).union(result.unchanged.map(\.key))
                for plan in batch { if let key = plan.request?.key, done.contains(key) { landed.plans[key] = plan } }
                conflicts += result.conflicts
            }
            if landed.plans.values.contains(where: \.holds) { holdStored() }
            guard let first = conflicts.first else { return landed }
            guard attempt < maximumAttempts else { throw WalletStoreError.updateConflict(first.key, attempts: maximumAttempts) }
            pending = []
            for chunk in conflicts.batches(of: Self.batchSize) {
                let holds = try await store.holds(chunk.map(\.key))
                pending += try await self.plans(Array(chunk), holds: holds, replan).filter { $0.request != nil }
            }
        }
        return landed
    }
}
