import Foundation
import PasswrightTesting
import Storage
import Testing

/// Failures that outlast a request are told apart from bugs, on the engines themselves: a full SQLite
/// database is `full` and names its file (for every write it undid), a PostgreSQL connection the
/// server dropped is `unavailable` and comes back by itself, and the database's health keeps the
/// failure until a write (or a probe) proves otherwise.
@Suite struct StorageFailureTests {
    static let blobs = Migration(
        version: 1, name: "blobs",
        sqlite: "CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB NOT NULL);",
        postgres: "CREATE TABLE blobs (id BIGSERIAL PRIMARY KEY, b BYTEA NOT NULL);"
    )

    private static func insertBlob(_ database: any Database) async throws {
        try await database.execute(SQL("INSERT INTO blobs (b) VALUES (?)", .blob(Data(repeating: 7, count: 16 * 1024))))
    }

    /// `PRAGMA max_page_count` makes SQLite answer `SQLITE_FULL` exactly as a full volume does,
    /// without mounting one.
    @Test func fullSQLiteIsFullNamingTheFileUntilAWriteFits() async throws {
        try await TestEngine.sqlite.withLocation { configuration in
            let database = try await configuration.open(poolSize: 2)
            try await database.migrate([Self.blobs])
            let pages = try #require(try await database.query(SQL("PRAGMA page_count")).first?.int64("page_count"))
            try await database.execute(SQL(unsafeText: "PRAGMA max_page_count = \(pages + 8)"))

            var failure: StorageError?
            for _ in 0..<64 where failure == nil {
                do { try await Self.insertBlob(database) } catch let error as StorageError { failure = error }
            }
            let full = try #require(failure, "64 blobs of 16 KiB never filled 8 pages")
            #expect(full.kind == .full, "\(full)")
            guard case .full(.sqlite, let location, _, _) = full else {
                Issue.record("not the full case: \(full)")
                return
            }
            #expect(location.hasPrefix("sqlite:/") && location.hasSuffix("/nested/passwright.sqlite"), "\(location)")
            #expect(full.description.contains("Free space"))
            #expect(database.health.lastFailure?.kind == .full)

            // Writes that share the writer's transaction with a failing one fail as full too.
            await withTaskGroup(of: StorageError?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do { try await Self.insertBlob(database); return nil } catch { return error as? StorageError }
                    }
                }
                for await error in group {
                    #expect(error?.kind == .full, "\(String(describing: error))")
                }
            }

            // A read does not clear "full": reads go on while nothing can be written.
            _ = try await database.query(SQL("SELECT COUNT(*) AS n FROM blobs"))
            #expect(database.health.lastFailure?.kind == .full)

            // Room again: the readiness probe's write (which rewrites a page in place, so it fits under
            // max_page_count; on a full volume the WAL cannot take it, see scripts/outage.sh) clears it,
            // and writes go on.
            try await database.execute(SQL(unsafeText: "PRAGMA max_page_count = 1000000"))
            #expect(await database.probe() == nil)
            try await Self.insertBlob(database)
            #expect(database.health.lastFailure == nil)
            await database.close()
        }
    }

    @Test func postgresConnectionDroppedIsUnavailableThenReconnects() async throws {
        guard TestEngine.postgresEnabled else { return }
        try await TestEngine.postgres.withLocation { configuration in
            let database = try await configuration.open(poolSize: 1)
            let killer = try await configuration.open(poolSize: 1)
            try await database.migrate([Self.blobs])
            let pid = try #require(try await database.query(SQL("SELECT pg_backend_pid() AS pid")).first?.int64("pid"))
            _ = try await killer.query(SQL("SELECT pg_terminate_backend(?::int) AS done", .integer(pid)))

            var dropped: StorageError?
            do { try await Self.insertBlob(database) } catch let error as StorageError { dropped = error }
            let error = try #require(dropped, "a statement on a terminated connection succeeded")
            #expect(error.kind == .unavailable, "\(error)")
            #expect(database.health.lastFailure?.kind == .unavailable)

            // The next call reconnects by itself, and its success clears the failure.
            try await Self.insertBlob(database)
            #expect(database.health.lastFailure == nil)
            #expect(await database.probe() == nil)
            await killer.close()
            await database.close()
        }
    }

    @Test(arguments: [
        ("08006", StorageError.Kind.unavailable), ("08001", .unavailable), ("57P01", .unavailable), ("57P03", .unavailable),
        ("53300", .unavailable), ("53200", .unavailable), ("23503", .other), ("40001", .other), ("XX000", .other),
    ])
    func postgresCodesHaveTheirKind(code: String, kind: StorageError.Kind) {
        #expect(StorageError.statementFailed(engine: .postgres, sql: "SELECT 1", code: code, message: "m").kind == kind)
    }

    @Test func connectionFailuresAreUnavailableAndDiskFullIsFull() {
        #expect(StorageError.connectionFailed(engine: .postgres, location: "postgres://db", message: "refused").kind == .unavailable)
        #expect(StorageError.closed(engine: .sqlite).kind == .unavailable)
        #expect(StorageError.full(engine: .postgres, location: "postgres://db:5432/p", code: "53100", message: "could not extend file").kind == .full)
        #expect(StorageError.groupRolledBack(cause: .full).kind == .full)
        #expect(StorageError.uniqueViolation(engine: .sqlite, sql: "INSERT", message: "m").kind == .other)
    }
}
