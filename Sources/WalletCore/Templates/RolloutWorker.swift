import Foundation
import PasswrightLogging
import WalletStore

/// Carries a template's current version to its passes: advances their update tags in short batches
/// (each its own transaction) and queues the pushes, until no pass renders from an older version.
///
/// Woken when this instance makes a version current, and once at start, so a roll-out a crash cut
/// short goes on. On PostgreSQL, instances that roll out the same template at once take disjoint
/// batches (`SKIP LOCKED`).
public final class RolloutWorker: Sendable {
    private let store: WalletStore
    private let batchSize: Int
    private let logger: Logger
    private let signal = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// A worker moving `batchSize` passes per transaction.
    init(store: WalletStore, batchSize: Int = 500, logger: Logger) {
        precondition(batchSize >= 1, "a batch moves at least one pass")
        self.store = store
        self.batchSize = batchSize
        self.logger = logger
    }

    /// A version was made current: roll it out.
    func wake() {
        signal.continuation.yield()
    }

    /// Rolls out whatever is behind, then again at every wake, until the task is cancelled.
    public func run() async {
        var wakes = signal.stream.makeAsyncIterator()
        repeat {
            await rollOutAll()
        } while await wakes.next() != nil && !Task.isCancelled
    }

    /// Rolls every template's current version out to all its passes; returns the passes advanced.
    @discardableResult
    public func rollOutAll() async -> Int {
        var total = 0
        do {
            for rollout in try await store.templateRollouts() where rollout.behind > 0 {
                total += try await rollOut(rollout)
            }
        } catch {
            logger.error("template roll-out failed; it resumes at the next upload or start", ["error": "\(error)"])
        }
        return total
    }

    private func rollOut(_ rollout: TemplateRollout) async throws -> Int {
        let clock = ContinuousClock()
        let started = clock.now
        var advanced = 0, pushes = 0, batches = 0
        var longest = Duration.zero
        while !Task.isCancelled {
            let batchStarted = clock.now
            let batch = try await store.advanceTemplatePasses(rollout.name, to: rollout.currentVersion, limit: batchSize)
            longest = max(longest, clock.now - batchStarted)
            guard batch.advanced > 0 else { break }
            advanced += batch.advanced
            pushes += batch.pushesQueued
            batches += 1
        }
        // The longest batch bounds how long any transaction of the roll-out held its locks.
        logger.info("template rolled out", [
            "template": rollout.name, "version": String(rollout.currentVersion), "passes": String(advanced),
            "pushesQueued": String(pushes), "batches": String(batches),
            "seconds": Self.seconds(clock.now - started), "longestBatchSeconds": Self.seconds(longest),
        ])
        return advanced
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
