import Foundation
import PasswrightLogging
import WalletStore

/// Writes held notifying changes when they fall due, through the write pipeline: sleeps until the
/// earliest release (or until a new hold may be earlier), then applies each due change's edits to
/// the pass as it is then, in batches, with their pushes, removing the holds in the same
/// transactions. Several instances may release side by side: a release is a compare-and-swap, so a
/// hold is written once. A template-wide change held overnight thus goes out in batches when each
/// holder's quiet hours end, and the push worker paces the pushes.
public final class HoldReleaser: Sendable {
    private let passes: PassService
    private let logger: Logger

    /// A releaser of the holds `passes` stores.
    init(passes: PassService, logger: Logger) {
        self.passes = passes
        self.logger = logger
    }

    /// Releases due holds and sleeps until the next, until the task is cancelled.
    public func run() async {
        let store = passes.store
        while !Task.isCancelled {
            await releaseDue()
            let next = (try? await store.nextHoldRelease()) ?? nil
            let wait = next.map { max(0, $0.timeIntervalSince(passes.now())) } ?? 3600
            // Whichever comes first: the next release, or a new hold (which may be earlier).
            await passes.holdStored.wait(upTo: .milliseconds(Int64(min(wait, 3600) * 1000) + 5))
        }
    }

    /// Writes every held change that is due; returns how many were released.
    @discardableResult
    public func releaseDue() async -> Int {
        do {
            let (released, failures) = try await passes.writer.releaseDue()
            for (key, error) in failures {
                logger.warning("a held change cannot be released yet; it is tried again at the next round", ["pass": "\(key)", "error": "\(error)"])
            }
            return released
        } catch {
            logger.error("held changes not released; they go out at the next round", ["error": "\(error)"])
            return 0
        }
    }
}
