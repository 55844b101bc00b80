@testable import Storage
import PasswrightTesting
import Testing

/// On PostgreSQL a write can be one statement run as a query (a registration: `WITH … INSERT …
/// SELECT`). Its success proves there is room to write, as an `execute`'s does, so it clears a
/// "full" failure; a `SELECT` does not, since reads go on while nothing can be written.
@Suite(.enabled(if: TestEngine.postgresEnabled), .timeLimit(.minutes(1))) struct PostgresWritingQueryTests {
    @Test func aWritingQueryClearsFullAndASelectDoesNot() async throws {
        try await TestEngine.postgres.withDatabase(poolSize: 1) { database in
            try await database.execute(SQL("CREATE TEMPORARY TABLE notes (id BIGINT)"))
            database.health.record(StorageError.full(engine: .postgres, location: "postgres://test", code: "53100", message: "could not extend file"))
            #expect(database.health.lastFailure?.kind == .full)

            _ = try await database.query(SQL("SELECT COUNT(*) AS count FROM notes"))
            #expect(database.health.lastFailure?.kind == .full, "a read proves nothing about room to write")

            let inserted = try await database.query(SQL("WITH added AS (INSERT INTO notes (id) VALUES (1) RETURNING id) SELECT COUNT(*) AS count FROM added"))
            #expect(try inserted[0].int("count") == 1)
            #expect(database.health.lastFailure == nil, "a write that landed clears full")
        }
    }
}
