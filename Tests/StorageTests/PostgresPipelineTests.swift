import PasswrightTesting
import Storage
import Testing

/// A PostgreSQL transaction's `BEGIN` travels with its first statement, and a deferred statement
/// with the next one, in one round trip: the statement is still inside the transaction, and whatever
/// fails leaves the connection usable.
@Suite(.enabled(if: TestEngine.postgresEnabled)) struct PostgresPipelineTests {
    private struct Abort: Error {}

    /// The deferred statement takes a transaction-scoped advisory lock, which another connection
    /// sees in `pg_locks` once the server has run it: not after `executeLater`, but after the next
    /// statement, which went in the same round trip.
    @Test func aDeferredStatementIsSentWithTheNextOne() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            let database = try await configuration.open(poolSize: 1)
            let observer = try await configuration.open(poolSize: 1)
            try await withCleanup {
                let key: Int64 = 7_300_000_000_000_000_001
                let held = SQL("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = ?", .integer(key & 0xFFFF_FFFF))
                let seen = try await database.transaction { transaction -> (before: Int, after: Int) in
                    _ = try await transaction.query(SQL("SELECT 1 AS one"))
                    try await transaction.executeLater(SQL("SELECT pg_advisory_xact_lock(?::bigint)", .integer(key)))
                    let before = try await observer.query(held)[0].int("n")
                    _ = try await transaction.query(SQL("SELECT 1 AS one"))
                    return (before, try await observer.query(held)[0].int("n"))
                }
                #expect(seen.before == 0 && seen.after == 1, "\(seen)")
                #expect(try await observer.query(held)[0].int("n") == 0, "released with the transaction")
            } cleanup: {
                await database.close()
                await observer.close()
            }
        }
    }

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

    /// A connection keeps at most 256 prepared statements and drops them all to prepare one more; a
    /// deferred statement, prepared but not sent yet, goes out first instead of being dropped.
    @Test func aDeferredStatementSurvivesTheConnectionsStatementsBeingDropped() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TABLE t (a BIGINT PRIMARY KEY)"))
            let sums = try await database.transaction { transaction in
                var sum: Int64 = 0
                // Each query a text of its own, prepared on first use: more than the set holds, so
                // at some turn a deferred insert waits when the set is dropped to prepare the next.
                for number in 0..<300 {
                    try await transaction.executeLater(SQL("INSERT INTO t (a) VALUES (?)", .integer(Int64(number))))
                    sum += try await transaction.query(SQL(unsafeText: "SELECT CAST(? AS BIGINT) + \(number) AS n", parameters: [.integer(1)]))[0].int64("n")
                }
                return sum
            }
            #expect(sums == (0..<300).reduce(0) { $0 + 1 + Int64($1) })
            #expect(try await database.query(SQL("SELECT COUNT(*) AS n FROM t"))[0].int("n") == 300)
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
