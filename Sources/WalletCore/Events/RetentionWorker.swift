import Foundation
import PasswrightLogging

/// Keeps what expires to its lifetime: the event log to its retention and idempotency keys to a day;
/// prunes at start and then hourly, in small batches. Every instance may run it; a batch another
/// instance already deleted simply deletes nothing.
public struct RetentionWorker: Sendable {
    let events: EventService
    let idempotency: IdempotencyService
    let logger: Logger
    /// How long between two prunings: both expire by the day, so an hour is plenty.
    var interval: Duration = .seconds(3600)

    /// Prunes until the surrounding task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                let events = try await events.prune()
                let keys = try await idempotency.prune()
                if events + keys > 0 { logger.info("pruned expired rows", ["events": String(events), "idempotencyKeys": String(keys)]) }
            } catch {
                logger.error("cannot prune expired rows; trying again later", ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
