import PasswrightTesting
import Storage
import Testing

/// A PostgreSQL transaction's `BEGIN` travels with its first statement, in one round trip: the
/// statement is still inside the transaction, and whatever fails leaves the connection usable.
@Suite(.enabled(if: TestEngine.postgresEnabled)) struct PostgresPipelineTests {
    private struct Abort: Error {}

    @Test func theFirstStatementIsInsideTheTransaction() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TABLE t (a BIGINT PRIMARY KEY)"))
            await #expect(throws: Abort.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO t (a) VALUES (1)"))
                    throw Abort()
                }
            }
            #expect(try await database.query(SQL("SELECT a FROM t")).isEmpty)
            // now() is the transaction's start, which a later statement of the same transaction keeps.
            let sameStart = try await database.transaction { transaction in
                let first = try await transaction.query(SQL("SELECT CAST(now() AS text) AS at"))[0].string("at")
                _ = try await transaction.query(SQL("SELECT pg_sleep(0.01)"))
                return try await transaction.query(SQL("SELECT CAST(now() AS text) AS at"))[0].string("at") == first
            }
            #expect(sameStart)
        }
    }

    @Test func aFailedFirstStatementOrAnEmptyTransactionLeavesTheConnectionUsable() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TABLE t (a BIGINT PRIMARY KEY)"))
            try await database.execute(SQL("INSERT INTO t (a) VALUES (1)"))
            let duplicate = await #expect(throws: StorageError.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO t (a) VALUES (1)"))
                }
            }
            #expect(duplicate?.isUniqueViolation == true)
            await #expect(throws: StorageError.self) {
                try await database.transaction { try await $0.execute(SQL("INSERT INTO nowhere (a) VALUES (1)")) }
            }
            try await database.transaction { _ in }
            try await database.transaction { transaction in
                try await transaction.execute(SQL("INSERT INTO t (a) VALUES (2)"))
                try await transaction.execute(SQL("INSERT INTO t (a) VALUES (3)"))
            }
            #expect(try await database.query(SQL("SELECT a FROM t ORDER BY a")).map { try $0.int64("a") } == [1, 2, 3])
        }
    }
}
