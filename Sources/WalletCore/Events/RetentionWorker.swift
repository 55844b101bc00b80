import Foundation
import PasswrightLogging

/// Keeps what expires to its lifetime: the event log and finished bulk jobs to the event retention,
/// the audit trail to its own, idempotency keys to a day, pass history, device logs and voided passes
/// to the operator's ``RetentionSettings``, erased passes' and orders' registrations to their grace, and folds
/// past days' analytics shards; prunes at start and then hourly, in small batches. Every instance may run it; a batch another instance
/// already deleted simply deletes nothing.
public struct RetentionWorker: Sendable {
    let events: EventService
    let audit: AuditService
    let passes: PassService
    let orders: OrderService
    let idempotency: IdempotencyService
    let bulkJobs: BulkJobService
    let analytics: AnalyticsService
    let settings: RetentionSettings
    let logger: Logger
    /// How long between two prunings: everything expires by the day, so an hour is plenty.
    var interval: Duration = .seconds(3600)

    /// Prunes until the surrounding task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                _ = try await pruneOnce()
            } catch {
                logger.error("cannot prune expired rows; trying again later", ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// One round of pruning as of `now`; returns how many rows of each kind went (and logs it).
    @discardableResult
    public func pruneOnce(now: Date = Date()) async throws -> [String: Int] {
        let passRound = try await passes.applyRetention(settings, now: now)
        let counts = [
            "events": try await events.prune(now: now), "idempotencyKeys": try await idempotency.prune(), "bulkJobs": try await bulkJobs.prune(),
            "auditRows": try await audit.prune(now: now), "historyRows": passRound.historyRows, "deviceLogs": passRound.deviceLogs, "expiredPassesVoided": passRound.voidedPasses,
            "erasedPasses": passRound.erasedPasses, "erasedPassRegistrations": passRound.erasedRegistrations,
            "erasedOrderRegistrations": try await orders.dropErasedRegistrations(now: now),
            "analyticsShardsFolded": try await analytics.compact(now: now),
        ]
        if counts.values.contains(where: { $0 > 0 }) {
            logger.info("pruned expired rows", counts.filter { $0.value > 0 }.mapValues(String.init))
        }
        return counts
    }
}

extension RetentionWorker {
    /// Calls `step` (which deletes up to `batch` rows and says how many) until it deletes fewer, yielding
    /// between batches so a large backlog never holds the writer long; returns how many went.
    static func pruneInBatches(of batch: Int, _ step: (Int) async throws -> Int) async throws -> Int {
        var total = 0
        while true {
            let removed = try await step(batch)
            total += removed
            if removed < batch { return total }
            await Task.yield()
        }
    }
}
