import Foundation
import PasswrightLogging
import WalletStore

/// Carries a template's current version to its passes through the write pipeline
/// (``PassWriter/rollOut(template:to:)``): short batches, each its own transaction with its history
/// rows and pushes, until no pass renders from an older version. A pass whose new version shows its
/// holder a notification is held like any notifying change (quiet hours, spacing).
///
/// Woken when this instance makes a version current, and once at start, so a roll-out a crash cut
/// short goes on. On PostgreSQL, instances that roll out the same template at once take disjoint
/// batches (`SKIP LOCKED`).
public final class RolloutWorker: Sendable {
    private let store: WalletStore
    private let writer: PassWriter
    private let logger: Logger
    private let signal = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// A worker moving the passes of `passes`' store.
    init(passes: PassService, logger: Logger) {
        store = passes.store
        writer = passes.writer
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
            for template in try await store.templatesBehind() {
                total += try await rollOut(template.name, to: template.currentVersion)
            }
        } catch {
            logger.error("template roll-out failed; it resumes at the next upload or start", ["error": "\(error)"])
        }
        return total
    }

    private func rollOut(_ template: String, to version: Int64) async throws -> Int {
        let clock = ContinuousClock()
        let started = clock.now
        let moved = try await writer.rollOut(template: template, to: version)
        logger.info("template rolled out", [
            "template": template, "version": String(version), "passes": String(moved.advanced),
            "held": String(moved.held), "pushesQueued": String(moved.pushesQueued), "batches": String(moved.batches),
            "seconds": Self.seconds(clock.now - started), "longestBatchSeconds": Self.seconds(moved.longestBatch),
            "planningSeconds": Self.seconds(moved.planning), "writingSeconds": Self.seconds(moved.writing),
        ])
        if try await store.finishRollout(template, version: version) {
            logger.info("template roll-out finished", ["template": template, "version": String(version)])
        }
        if let first = moved.unrenderable.first {
            logger.warning("template version cannot render some passes; they moved to it and their fetch says why", [
                "template": template, "version": String(version), "passes": String(moved.unrenderable.count),
                "first": "\(first)",
            ])
        }
        return moved.advanced
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration / .seconds(1))
    }
}
