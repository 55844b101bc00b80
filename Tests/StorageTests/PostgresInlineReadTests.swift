import Foundation
import Locking
import PasswrightTesting
import Storage
import Synchronization
import Testing

/// A PostgreSQL read on a thread that holds the ``BlockingPermit`` (the HTTP server's daemon thread
/// running a responder's first step) runs right there: no pool connection, no thread switch, no
/// suspension. A write, or a read without the permit, still goes through the pool.
@Suite(.enabled(if: TestEngine.postgresEnabled), .timeLimit(.minutes(1))) struct PostgresInlineReadTests {
    /// What the first step observed: the statement's answer, and whether it came back still inside
    /// the first step (the permit is held only there: no suspension in between).
    struct Outcome: Sendable {
        var answer: Int64
        var inline: Bool
    }

    @Test func aPermittedReadRunsOnItsThreadWhileThePoolIsBusy() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            let holding = Gate(), release = Gate()
            // The pool's only connection, held in a transaction until released.
            async let held: Void = database.transaction { transaction in
                _ = try await transaction.query(SQL("SELECT 1 AS one"))
                holding.open()
                await release.wait()
            }
            await holding.wait()

            let permitted = try await Self.firstStep(permit: true) {
                try await database.query(SQL("SELECT 41 + 1 AS answer"))[0].int64("answer")
            }
            #expect(permitted.answer == 42)
            #expect(permitted.inline, "answered without suspending, though the pool's connection is taken")

            // A write, and a read without the permit, need the pool: they wait for the transaction.
            let finished = Locked<[String]>([])
            async let written = Self.firstStep(permit: true) {
                defer { finished.withLock { $0.append("write") } }
                return Int64(try await database.execute(SQL("CREATE TEMPORARY TABLE scratch (a BIGINT)")))
            }
            async let unpermitted = Self.firstStep(permit: false) {
                defer { finished.withLock { $0.append("read") } }
                return try await database.query(SQL("SELECT 7 AS answer"))[0].int64("answer")
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(finished.withLock { $0 }.isEmpty, "both wait for the pool's connection")
            release.open()
            try await held
            #expect(try await written.inline == false)
            #expect(try await unpermitted.answer == 7)
            #expect(finished.withLock { $0 }.sorted() == ["read", "write"])
        }
    }

    /// Runs `body` as the first step of a task started on a thread of its own, as the HTTP server's
    /// `FirstStepInline` does on a daemon thread, granting the permit there when `permit` is set.
    static func firstStep(permit: Bool, _ body: @escaping @Sendable () async throws -> Int64) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                _ = Task(executorPreference: FirstJobHere(permit: permit)) {
                    do {
                        let answer = try await body()
                        continuation.resume(returning: Outcome(answer: answer, inline: BlockingPermit.isGranted))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
            thread.start()
        }
    }
}

/// Runs a task's first job on the thread that starts the task, with the permit if asked; the rest
/// on the global pool.
private final class FirstJobHere: TaskExecutor, Sendable {
    private let first = Atomic<Bool>(true)
    private let permit: Bool

    init(permit: Bool) {
        self.permit = permit
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if first.exchange(false, ordering: .acquiringAndReleasing) {
            if permit { BlockingPermit.grant() }
            job.runSynchronously(on: asUnownedTaskExecutor())
            if permit { BlockingPermit.revoke() }
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
