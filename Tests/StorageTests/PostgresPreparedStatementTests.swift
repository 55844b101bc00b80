import PasswrightTesting
import Storage
import Testing

/// PostgreSQL statements are prepared once per connection and prepared again when the server has
/// forgotten them or a schema change outdated their plan, without the caller seeing either.
@Suite(.enabled(if: TestEngine.postgresEnabled)) struct PostgresPreparedStatementTests {
    private static let listing = SQL("SELECT * FROM t ORDER BY a")

    @Test func aStatementIsPreparedOnceAndReused() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TABLE t (a BIGINT)"))
            for value in 1...5 {
                try await database.execute(SQL("INSERT INTO t (a) VALUES (?)", .integer(Int64(value))))
            }
            let prepared = try await database.query(SQL(
                "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO t %'"
            ))
            #expect(try prepared[0].int64("n") == 1)
        }
    }

    @Test func placeholdersAreCountedForEveryStatementThoughRewrittenOnce() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TABLE t (a BIGINT, b TEXT)"))
            let insert = "INSERT INTO t (a, b) VALUES (?, '?' || ?)"  // the quoted ? is text
            try await database.execute(SQL(unsafeText: insert, parameters: [.integer(1), .text("x")]))
            try await database.execute(SQL(unsafeText: insert, parameters: [.integer(2), .text("y")]))
            let rows = try await database.query(SQL("SELECT a, b FROM t ORDER BY a"))
            #expect(rows.map(\.values) == [[.integer(1), .text("?x")], [.integer(2), .text("?y")]])
            // The same text with a parameter short, after it was prepared, and a new text: both refused.
            for (text, values) in [(insert, [SQLValue.integer(3)]), ("SELECT a FROM t WHERE a = ? AND b = ?", [.integer(1)])] {
                do {
                    _ = try await database.query(SQL(unsafeText: text, parameters: values))
                    Issue.record("ran \(text) with \(values.count) parameter")
                } catch StorageError.parameterCount(engine: .postgres, sql: text, placeholders: 2, values: 1) {
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
    }

    @Test func aSchemaChangeByAnotherInstanceIsPreparedAgain() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            let database = try await configuration.open(poolSize: 1)
            let other = try await configuration.open(poolSize: 1)
            try await database.execute(SQL("CREATE TABLE t (a BIGINT)"))
            try await database.execute(SQL("INSERT INTO t (a) VALUES (1)"))
            #expect(try await database.query(Self.listing)[0].values == [.integer(1)])
            // The plan prepared above returns one column; PostgreSQL refuses to run it as it is now.
            try await other.execute(SQL("ALTER TABLE t ADD COLUMN b BIGINT NOT NULL DEFAULT 2"))
            #expect(try await database.query(Self.listing)[0].values == [.integer(1), .integer(2)])

            // Inside a transaction the failure has aborted it: it fails as a whole, and the next one works.
            try await other.execute(SQL("ALTER TABLE t ADD COLUMN c BIGINT NOT NULL DEFAULT 3"))
            await #expect(throws: StorageError.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO t (a) VALUES (5)"))
                    _ = try await transaction.query(Self.listing)
                }
            }
            let rows = try await database.transaction { try await $0.query(Self.listing) }
            #expect(rows.map(\.values) == [[.integer(1), .integer(2), .integer(3)]])
            await database.close()
            await other.close()
        }
    }

    @Test func statementsTheServerForgotArePreparedAgain() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TABLE t (a BIGINT)"))
            try await database.execute(SQL("INSERT INTO t (a) VALUES (7)"))
            #expect(try await database.query(Self.listing)[0].values == [.integer(7)])
            // What a connection pooler in front of the server, or another tool's DISCARD, does.
            try await database.execute(SQL("DEALLOCATE ALL"))
            #expect(try await database.query(Self.listing)[0].values == [.integer(7)])
        }
    }
}
