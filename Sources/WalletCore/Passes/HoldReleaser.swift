import Foundation
import PasswrightLogging
import WalletStore

/// Writes held notifying changes when they fall due: sleeps until the earliest release (or until a
/// new hold may be earlier), then writes each due change under a new tag with its pushes, removing
/// the hold in the same transaction. Several instances may release side by side: a release is a
/// compare-and-swap, so a hold is written once.
public final class HoldReleaser: Sendable {
    private let store: WalletStore
    private let logger: Logger
    private let doorbell = Doorbell()

    /// A releaser over `store`.
    init(store: WalletStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// A hold was stored: its release may be the earliest.
    func wake() {
        doorbell.ring()
    }

    /// Releases due holds and sleeps until the next, until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            await releaseDue()
            let next = (try? await store.nextHoldRelease()) ?? nil
            let wait = next.map { max(0, $0.timeIntervalSince(store.clock.now())) } ?? 3600
            // Whichever comes first: the next release, or a new hold (which may be earlier).
            await doorbell.wait(upTo: .milliseconds(Int64(min(wait, 3600) * 1000) + 5))
        }
    }

    /// Writes every held change that is due; returns how many were written.
    @discardableResult
    public func releaseDue() async -> Int {
        var released = 0
        do {
            for hold in try await store.dueHolds() {
                for _ in 1...5 {
                    guard let current = try await store.pass(hold.key) else { break }
                    let write = try await store.writePass(
                        hold.key, expectedTag: current.updateTag, change: hold.change, notifies: true, releasesHold: true,
                        source: PassUpdateRecord.hold)
                    if case .conflict = write { continue }
                    released += 1
                    break
                }
            }
        } catch {
            logger.error("held changes not released; they go out at the next round", ["error": "\(error)"])
        }
        return released
    }
}
