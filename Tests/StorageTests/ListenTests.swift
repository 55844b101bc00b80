import Foundation
import PasswrightTesting
import Storage
import Testing

/// `Database.listen` on PostgreSQL: notifications committed by another connection reach the
/// listener, a rolled-back one does not, and cancelling the task closes the listening connection.
@Suite struct ListenTests {
    /// A channel no other test listens on.
    static func channel() -> String { "listen_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    @Test(.enabled(if: TestEngine.postgresEnabled), .timeLimit(.minutes(1)))
    func committedNotificationsWakeTheListenerAndCancellingClosesIt() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 2) { database in
            let channel = Self.channel()
            let (calls, heard) = AsyncStream<Void>.makeStream()
            var events = calls.makeAsyncIterator()
            let listening = SQL(unsafeText: "SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN \(channel)'")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { heard.finish() }
                    try await database.listen(on: channel) { heard.yield() }
                }
                #expect(await events.next() != nil, "called once when listening starts")
                #expect(try await database.query(listening).count == 1)

                // Rolled back: never delivered. Committed: delivered once, however many were sent.
                struct Rollback: Error {}
                _ = try? await database.transaction { transaction in
                    _ = try await transaction.query(SQL("SELECT pg_notify(?, '')", .text(channel)))
                    throw Rollback()
                }
                try await database.transaction { transaction in
                    _ = try await transaction.query(SQL("SELECT pg_notify(?, '')", .text(channel)))
                    _ = try await transaction.query(SQL("SELECT pg_notify(?, '')", .text(channel)))
                }
                #expect(await events.next() != nil, "the committed notification arrives")

                group.cancelAll()
                try await group.waitForAll()
            }
            let closed = try await Self.gone(listening, on: database)
            #expect(closed, "the listening connection is closed")
        }
    }

    @Test(.enabled(if: TestEngine.postgresEnabled), .timeLimit(.minutes(1)))
    func aKilledConnectionEndsTheListenWithAnError() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 2) { database in
            let channel = Self.channel()
            let (calls, heard) = AsyncStream<Void>.makeStream()
            var events = calls.makeAsyncIterator()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { heard.finish() }
                    await #expect(throws: StorageError.self) {
                        try await database.listen(on: channel) { heard.yield() }
                    }
                }
                #expect(await events.next() != nil)
                _ = try await database.query(SQL(unsafeText: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN \(channel)'"))
                // Without the error the listen would go on until cancelled, and the time limit fail it.
                try await group.waitForAll()
            }
        }
    }

    @Test func sqliteHasNoNotifications() async throws {
        try await TestEngine.sqlite.withDatabase { database in
            await #expect(throws: StorageError.self) { try await database.listen(on: Self.channel()) {} }
        }
    }

    /// Waits (bounded) until the backend of a closed connection has left `pg_stat_activity`: the
    /// server notices the closed socket just after the client.
    static func gone(_ sql: SQL, on database: any Database) async throws -> Bool {
        for _ in 0..<400 {
            if try await database.query(sql).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(25))
        }
        return false
    }
}
