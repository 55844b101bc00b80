import Foundation
import PasswrightLogging

/// Keeps the event log to its retention: prunes at start and then hourly, in small batches. Every
/// instance may run it; a batch another instance already deleted simply deletes nothing.
public struct EventPruner: Sendable {
    let events: EventService
    let logger: Logger
    /// How long between two prunings: events expire by the day, so an hour is plenty.
    var interval: Duration = .seconds(3600)

    /// Prunes until the surrounding task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                let removed = try await events.prune()
                if removed > 0 { logger.info("pruned expired events", ["events": String(removed)]) }
            } catch {
                logger.error("cannot prune the event log; trying again later", ["error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }
}
