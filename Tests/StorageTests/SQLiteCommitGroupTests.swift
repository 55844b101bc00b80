import Foundation
import Locking
import PasswrightTesting
@testable import Storage
import Testing

/// Writes queued behind each other on the SQLite writer share one commit, each in a savepoint of
/// its own, and none is answered before that commit.
@Suite struct SQLiteCommitGroupTests {
    private static let notes = Migration(version: 1, name: "notes", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")

    private struct Refused: Error {}

    /// Opens a SQLite file twice: `database` under test, `observer` to see only what has committed.
    private func withTwoHandles(_ body: (SQLiteDatabase, any Database) async throws -> Void) async throws {
        try await TestEngine.sqlite.withLocation { configuration in
            let database = try #require(try await configuration.open() as? SQLiteDatabase)
            let observer = try await configuration.open()
            try await withCleanup {
                try await database.migrate([Self.notes])
                try await body(database, observer)
            } cleanup: {
                await database.close()
                await observer.close()
            }
        }
    }

    /// Starts the first write (row 1) in `group` and returns once its body runs; the body then waits
    /// for `release`, so the writes started next queue behind it. `answered` runs when its call returns.
    private static func holdWriter(
        _ database: SQLiteDatabase, in group: inout ThrowingTaskGroup<Void, any Error>, until release: Gate,
        answered: @escaping @Sendable () -> Void
    ) async {
        let holding = Gate()
        group.addTask {
            try await database.transaction { transaction in
                try await insert(1, into: transaction)
                holding.open()
                await release.wait()
            }
            answered()
        }
        await holding.wait()
    }

    private static func insert(_ id: Int64, into transaction: Transaction) async throws {
        try await transaction.execute(SQL("INSERT INTO notes (id, body) VALUES (?, 'x')", .integer(id)))
    }

    private static func committedIDs(_ observer: any Database) async throws -> [Int64] {
        try await observer.query(SQL("SELECT id FROM notes ORDER BY id")).map { try $0.int64("id") }
    }

    @Test func queuedWritesShareOneCommitAndAreAnsweredAfterIt() async throws {
        try await withTwoHandles { database, observer in
            let release = Gate()
            let firstAnswered = Locked(false)
            let seenInSecond = Locked<(inTransaction: [Int64], committed: [Int64], firstAnswered: Bool)?>(nil)
            try await withThrowingTaskGroup(of: Void.self) { group in
                await Self.holdWriter(database, in: &group, until: release) { firstAnswered.withLock { $0 = true } }
                group.addTask {
                    try await database.transaction { transaction in
                        try await Self.insert(2, into: transaction)
                        let inTransaction = try await transaction.query(SQL("SELECT id FROM notes ORDER BY id")).map { try $0.int64("id") }
                        let committed = try await Self.committedIDs(observer)
                        seenInSecond.withLock { $0 = (inTransaction, committed, firstAnswered.withLock { $0 }) }
                    }
                }
                // Queued in this order: two tasks started together may reach the writer either way round.
                try await database.writer.waitForWaiters(1)
                group.addTask {
                    try await database.transaction { try await Self.insert(3, into: $0) }
                }
                try await database.writer.waitForWaiters(2)
                release.open()
                try await group.waitForAll()
            }
            let seen = try #require(seenInSecond.withLock { $0 })
            // The second write ran in the first one's transaction: it saw row 1, which had not
            // committed yet, and the first write had not been answered.
            #expect(seen.inTransaction == [1, 2])
            #expect(seen.committed == [])
            #expect(seen.firstAnswered == false)
            #expect(try await Self.committedIDs(observer) == [1, 2, 3])
        }
    }

    @Test func aWriteThatThrowsIsUndoneAloneInItsGroup() async throws {
        try await withTwoHandles { database, observer in
            let release = Gate()
            let outcomes = Locked<[Int64: Bool]>([:])
            try await withThrowingTaskGroup(of: Void.self) { group in
                await Self.holdWriter(database, in: &group, until: release) { outcomes.withLock { $0[1] = true } }
                for id in Int64(2)...4 {
                    group.addTask {
                        let done: Bool
                        do {
                            try await database.transaction { transaction in
                                try await Self.insert(id, into: transaction)
                                if id == 3 {
                                    // A unique violation inside the body, then the body's own error.
                                    _ = try? await Self.insert(2, into: transaction)
                                    throw Refused()
                                }
                            }
                            done = true
                        } catch {
                            done = !(error is Refused)
                        }
                        outcomes.withLock { $0[id] = done }
                    }
                }
                try await database.writer.waitForWaiters(3)
                release.open()
                try await group.waitForAll()
            }
            #expect(outcomes.withLock { $0 } == [1: true, 2: true, 3: false, 4: true])
            #expect(try await Self.committedIDs(observer) == [1, 2, 4])
        }
    }
}

extension ConnectionPool {
    /// Returns once `count` callers wait for a connection: how a test lines writes up behind one.
    /// (The pool has no signal for it, and the product needs none.)
    fileprivate func waitForWaiters(_ count: Int) async throws {
        while waiting < count {
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
