import Foundation
import PasswrightLogging

/// Keeps what expires to its lifetime: the event log and finished bulk jobs to the event retention,
/// the audit trail to its own, idempotency keys to a day, erased passes' registrations to their grace;
/// prunes at start and then hourly, in small batches. Every instance may run it; a batch another
/// instance already deleted simply deletes nothing.
public struct RetentionWorker: Sendable {
    let events: EventService
    let audit: AuditService
    let passes: PassService
    let idempotency: IdempotencyService
    let bulkJobs: BulkJobService
    let logger: Logger
    /// How long between two prunings: both expire by the day, so an hour is plenty.
    var interval: Duration = .seconds(3600)

    /// Prunes until the surrounding task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                let events = try await events.prune()
                let keys = try await idempotency.prune()
                let jobs = try await bulkJobs.prune()
                let audited = try await audit.prune()
                let registrations = try await passes.dropErasedRegistrations()
                if events + keys + jobs + audited + registrations > 0 {
                    logger.info("pruned expired rows", [
                        "events": String(events), "idempotencyKeys": String(keys), "bulkJobs": String(jobs), "auditRows": String(audited),
                        "erasedPassRegistrations": String(registrations),
                    ])
                }
            } catch {
                logger.error("cannot prune expired rows; trying again later", ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
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
