import PasswrightTesting
import Storage
import Testing

/// A statement run with ``Transaction/executeLater(_:)`` is part of its transaction like any other:
/// it runs before the transaction's next statement, commits with it, rolls back with it, and its
/// failure fails the transaction. On both engines (PostgreSQL sends it with the next round trip,
/// SQLite runs it at once; ``PostgresPipelineTests`` checks the sending).
@Suite struct DeferredStatementTests {
    private struct Abort: Error {}

    private static func table(_ database: any Database) async throws {
        try await database.execute(SQL("CREATE TABLE t (a BIGINT PRIMARY KEY, b TEXT NOT NULL)"))
    }

    private static func rows(_ database: any Database) async throws -> [Int64] {
        try await database.query(SQL("SELECT a FROM t ORDER BY a")).map { try $0.int64("a") }
    }

    @Test(arguments: TestEngine.selected)
    func aDeferredStatementRunsBeforeTheNextAndCommitsWithIt(engine: TestEngine) async throws {
        try await engine.withDatabase(poolSize: 1) { database in
            try await Self.table(database)
            let seen = try await database.transaction { transaction in
                try await transaction.executeLater(SQL("INSERT INTO t (a, b) VALUES (?, ?)", .integer(1), .text("first")))
                try await transaction.executeLater(SQL("INSERT INTO t (a, b) VALUES (?, ?)", .integer(2), .text("second")))
                return try await transaction.query(SQL("SELECT COUNT(*) AS n FROM t"))[0].int("n")
            }
            #expect(seen == 2, "the next statement sees both rows, in the same transaction")
            // Deferred to the very end: the commit carries them.
            try await database.transaction { transaction in
                try await transaction.execute(SQL("INSERT INTO t (a, b) VALUES (3, 'third')"))
                try await transaction.executeLater(SQL("UPDATE t SET b = ? WHERE a = ?", .text("changed"), .integer(3)))
            }
            #expect(try await Self.rows(database) == [1, 2, 3])
            #expect(try await database.query(SQL("SELECT b FROM t WHERE a = 3"))[0].string("b") == "changed")
        }
    }

    @Test(arguments: TestEngine.selected)
    func aTransactionThatThrowsKeepsNothingDeferred(engine: TestEngine) async throws {
        try await engine.withDatabase(poolSize: 1) { database in
            try await Self.table(database)
            await #expect(throws: Abort.self) {
                try await database.transaction { transaction in
                    try await transaction.executeLater(SQL("INSERT INTO t (a, b) VALUES (1, 'x')"))
                    throw Abort()
                }
            }
            // The only statement of a transaction, deferred and then dropped.
            await #expect(throws: Abort.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO t (a, b) VALUES (2, 'y')"))
                    try await transaction.executeLater(SQL("INSERT INTO t (a, b) VALUES (3, 'z')"))
                    throw Abort()
                }
            }
            #expect(try await Self.rows(database).isEmpty)
            _ = try await database.transaction { try await $0.execute(SQL("INSERT INTO t (a, b) VALUES (4, 'w')")) }
            #expect(try await Self.rows(database) == [4], "the connection is still usable")
        }
    }

    @Test(arguments: TestEngine.selected)
    func aFailingDeferredStatementFailsItsTransaction(engine: TestEngine) async throws {
        try await engine.withDatabase(poolSize: 1) { database in
            try await Self.table(database)
            try await database.execute(SQL("INSERT INTO t (a, b) VALUES (1, 'kept')"))
            // Failing with the next statement: that statement reports it and nothing is kept.
            let withNext = await #expect(throws: StorageError.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO t (a, b) VALUES (2, 'lost')"))
                    try await transaction.executeLater(SQL("INSERT INTO t (a, b) VALUES (?, ?)", .integer(1), .text("duplicate")))
                    _ = try await transaction.query(SQL("SELECT a FROM t"))
                }
            }
            #expect(withNext?.isUniqueViolation == true)
            // Failing with the commit: the commit fails.
            let withCommit = await #expect(throws: StorageError.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO t (a, b) VALUES (3, 'lost')"))
                    try await transaction.executeLater(SQL("INSERT INTO t (a, b) VALUES (?, NULL)", .integer(4)))
                }
            }
            #expect(withCommit != nil)
            #expect(try await Self.rows(database) == [1], "neither transaction kept anything")
            try await database.transaction { try await $0.executeLater(SQL("INSERT INTO t (a, b) VALUES (5, 'v')")) }
            #expect(try await Self.rows(database) == [1, 5], "the connection is still usable")
        }
    }
}
