import Foundation
import PasswrightTesting
import Storage
import Testing

/// Behaviour of `Storage` on every engine, against real SQLite files and a real PostgreSQL.
@Suite struct StorageBehaviourTests {
    static let notes = Migration(
        version: 1, name: "notes",
        sqlite: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);",
        postgres: "CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL);"
    )
    static let tokens = Migration(
        version: 2, name: "tokens",
        sql: "CREATE TABLE tokens (token TEXT PRIMARY KEY, owner TEXT NOT NULL); CREATE INDEX tokens_owner ON tokens (owner);"
    )
    static let values = Migration(
        version: 3, name: "values",
        sqlite: "CREATE TABLE sample (id INTEGER PRIMARY KEY, i INTEGER, r REAL, t TEXT, b BLOB);",
        postgres: "CREATE TABLE sample (id BIGINT PRIMARY KEY, i BIGINT, r DOUBLE PRECISION, t TEXT, b BYTEA);"
    )

    private func versions(_ database: any Database) async throws -> [Int64] {
        try await database.query(SQL("SELECT version FROM schema_migrations ORDER BY version")).map { try $0.int64("version") }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func migrationsApplyOnceAndAreRecorded(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.tokens, Self.notes])
            // A second run would fail on CREATE TABLE if anything were re-applied.
            try await database.migrate([Self.notes, Self.tokens])
            #expect(try await versions(database) == [1, 2])
            let names = try await database.query(SQL("SELECT name FROM schema_migrations ORDER BY version")).map { try $0.string("name") }
            #expect(names == ["notes", "tokens"])

            try await database.migrate([Self.notes, Self.tokens, Self.values])
            #expect(try await versions(database) == [1, 2, 3])

            // A failing migration leaves neither its first statement nor its record.
            let broken = Migration(version: 4, name: "broken", sql: "CREATE TABLE partial (id INTEGER); CREATE TABLE notes (id INTEGER);")
            await #expect(throws: StorageError.self) { try await database.migrate([Self.notes, broken]) }
            #expect(try await versions(database) == [1, 2, 3])
            try await database.execute(SQL("CREATE TABLE partial (id INTEGER)"))

            // Renaming an applied version is reported, not skipped.
            let renamed = Migration(version: 1, name: "renamed", sql: "SELECT 1")
            let error = await #expect(throws: StorageError.self) { try await database.migrate([renamed]) }
            #expect(error?.description.contains("recorded this version as \"notes\"") == true)
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func everyValueTypeRoundTrips(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.values])
            let rows: [(Int64, SQLValue, SQLValue, SQLValue, SQLValue)] = [
                (1, .integer(.max), .real(3.141592653589793), .text("Zoë 🎟️ 東京 \u{202E}ltr"), .blob(Data([0, 1, 0, 255, 0]))),
                (2, .integer(.min), .real(-0.5e-300), .text(""), .blob(Data())),
                (3, .null, .null, .null, .null),
            ]
            for (id, integer, real, text, blob) in rows {
                try await database.execute(SQL("INSERT INTO sample (id, i, r, t, b) VALUES (?, ?, ?, ?, ?)", .integer(id), integer, real, text, blob))
            }
            let read = try await database.query(SQL("SELECT id, i, r, t, b FROM sample ORDER BY id"))
            #expect(read.count == 3)
            for (row, expected) in zip(read, rows) {
                #expect(row.values == [.integer(expected.0), expected.1, expected.2, expected.3, expected.4])
            }
            #expect(try read[0].data("b") == Data([0, 1, 0, 255, 0]))
            #expect(try read[1].data("b").isEmpty)
            #expect(try read[1].string("t") == "")
            #expect(try read[2].optionalString("t") == nil)
            #expect(try read[2].optionalData("b") == nil)
            #expect(try read[2].optionalInt64("i") == nil)
            #expect(try read[0].optionalInt64("i") == .max)

            let error = #expect(throws: StorageError.self) { try read[0].string("i") }
            #expect(error?.description == "Column \"i\": expected text, found integer")
            #expect(throws: StorageError.self) { try read[0].string("missing") }
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func metacharactersInValuesAreStoredVerbatim(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.notes])
            let hostile = "'; DROP TABLE notes; -- ? $1 \" \\ $$ /*"
            try await database.execute(SQL("INSERT INTO notes (body) VALUES (?)", .text(hostile)))
            let bodies = try await database.query(SQL("SELECT body FROM notes")).map { try $0.string("body") }
            #expect(bodies == [hostile])

            // A `?` inside a literal or a comment is not a placeholder on either engine.
            let row = try #require(try await database.query(SQL("""
                SELECT '?' AS literal, -- what about this one?
                       ? AS value
                """, .text("bound"))).first)
            #expect(try row.string("literal") == "?")
            #expect(try row.string("value") == "bound")
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func transactionCommitsWhenTheBodyReturns(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.tokens])
            let inserted = try await database.transaction { transaction in
                try await transaction.execute(SQL("INSERT INTO tokens (token, owner) VALUES (?, ?)", .text("a"), .text("ann")))
                try await transaction.execute(SQL("INSERT INTO tokens (token, owner) VALUES (?, ?)", .text("b"), .text("ann")))
                return try await transaction.execute(SQL("UPDATE tokens SET owner = ? WHERE owner = ?", .text("bob"), .text("ann")))
            }
            #expect(inserted == 2)
            // A writing query outside a transaction goes to the writer on SQLite, not a read-only reader.
            let returned = try await database.query(SQL("INSERT INTO tokens (token, owner) VALUES (?, ?) RETURNING token", .text("c"), .text("bob")))
            #expect(try returned.map { try $0.string("token") } == ["c"])
            let owners = try await database.query(SQL("SELECT owner FROM tokens ORDER BY token")).map { try $0.string("owner") }
            #expect(owners == ["bob", "bob", "bob"])
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func transactionRollsBackWhenTheBodyThrows(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.tokens])
            await #expect(throws: Abort()) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO tokens (token, owner) VALUES (?, ?)", .text("a"), .text("ann")))
                    throw Abort()
                }
            }
            #expect(try await database.query(SQL("SELECT token FROM tokens")).isEmpty)

            // The connection is usable again, and misuse inside a body is refused, not deadlocked.
            let escaped = try await database.transaction { transaction in
                await #expect(throws: StorageError.self) { try await database.query(SQL("SELECT 1")) }
                return transaction
            }
            await #expect(throws: StorageError.self) { try await escaped.query(SQL("SELECT 1")) }
            try await database.ping()
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func uniqueViolationIsRecognisedWithoutLeakingValues(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.tokens])
            let secret = "tok_5ecret_value_1234"
            let insert = SQL("INSERT INTO tokens (token, owner) VALUES (?, ?)", .text(secret), .text("ann"))
            try await database.execute(insert)
            let error = await #expect(throws: StorageError.self) { try await database.execute(insert) }
            #expect(error?.isUniqueViolation == true)
            #expect(error?.description.contains("INSERT INTO tokens (token, owner) VALUES (?, ?)") == true)
            #expect(error?.description.contains(secret) == false)
            #expect(try await database.query(SQL("SELECT token FROM tokens")).count == 1)
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func fiftyConcurrentWritersAllCommit(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            try await database.migrate([Self.notes, Self.tokens])
            try await database.execute(SQL("INSERT INTO notes (id, body) VALUES (?, ?)", .integer(1), .text("0")))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<50 {
                    group.addTask {
                        try await database.transaction { transaction in
                            try await transaction.execute(SQL("INSERT INTO tokens (token, owner) VALUES (?, ?)", .text("t\(writer)"), .text("w")))
                            // Read-modify-write: lost updates would leave the counter below 50.
                            // SQLite's BEGIN IMMEDIATE already holds the write lock; PostgreSQL needs the row lock.
                            let read = transaction.engine == .postgres
                                ? SQL("SELECT body FROM notes WHERE id = ? FOR UPDATE", .integer(1))
                                : SQL("SELECT body FROM notes WHERE id = ?", .integer(1))
                            let current = try await transaction.query(read)
                            let next = Int(try current[0].string("body"))! + 1
                            try await transaction.execute(SQL("UPDATE notes SET body = ? WHERE id = ?", .text(String(next)), .integer(1)))
                        }
                        _ = try await database.query(SQL("SELECT count(*) AS n FROM tokens"))
                    }
                }
                try await group.waitForAll()
            }
            let count = try await database.query(SQL("SELECT count(*) AS n FROM tokens"))
            #expect(try count[0].int64("n") == 50)
            let counter = try await database.query(SQL("SELECT body FROM notes WHERE id = ?", .integer(1)))
            #expect(try counter[0].string("body") == "50")
        }
    }

    @Test(arguments: TestEngine.selectedWithMemory)
    func errorsNameTheSQLAndTheEngine(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            let missing = await #expect(throws: StorageError.self) {
                try await database.query(SQL("SELECT owner FROM no_such_table WHERE token = ?", .text("tok_hidden")))
            }
            let description = missing?.description ?? ""
            #expect(description.contains("SELECT owner FROM no_such_table WHERE token = ?"))
            #expect(description.contains(database.engine.description))
            #expect(description.contains("no_such_table"))
            #expect(!description.contains("tok_hidden"))
            #expect(missing?.code != nil)

            let count = await #expect(throws: StorageError.self) { try await database.query(SQL("SELECT ? AS a, ? AS b", .integer(1))) }
            #expect(count?.description.contains("2 placeholder(s) but 1 value(s)") == true)
        }
    }

    @Test(.enabled(if: TestEngine.postgresEnabled))
    func skipLockedHandsConcurrentTransactionsDisjointRows() async throws {
        try await TestEngine.postgres.withDatabase { database in
            try await database.migrate([Self.notes])
            for id in 1...10 {
                try await database.execute(SQL("INSERT INTO notes (id, body) VALUES (?, 'job')", .integer(Int64(id))))
            }
            let claim = SQL("SELECT id FROM notes ORDER BY id LIMIT 5 FOR UPDATE SKIP LOCKED")
            let (claimed, claimedSignal) = AsyncStream<Void>.makeStream()
            let (proceed, proceedSignal) = AsyncStream<Void>.makeStream()
            // The first transaction holds its five row locks until the second one has claimed.
            async let first: [Int64] = database.transaction { transaction in
                defer { claimedSignal.finish() }
                let ids = try await transaction.query(claim).map { try $0.int64("id") }
                claimedSignal.yield()
                for await _ in proceed { break }
                return ids
            }
            for await _ in claimed { break }
            let second: [Int64] = try await database.transaction { transaction in
                // Without SKIP LOCKED this would wait on the first transaction; fail instead of hanging.
                try await transaction.execute(SQL("SET LOCAL lock_timeout = '5s'"))
                return try await transaction.query(claim).map { try $0.int64("id") }
            }
            proceedSignal.yield()
            let firstIDs = try await first
            #expect(firstIDs == [1, 2, 3, 4, 5])
            #expect(second == [6, 7, 8, 9, 10])
        }
    }

    @Test(.enabled(if: TestEngine.postgresEnabled))
    func postgresResultsAreTyped() async throws {
        try await TestEngine.postgres.withDatabase { database in
            let row = try #require(try await database.query(SQL("""
                SELECT CAST(? AS integer) AS small, CAST(? AS bigint) AS big, true AS yes, false AS no,
                       CAST(? AS double precision) AS ratio, CAST('2026-01-02 03:04:05+00' AS timestamptz) AS at,
                       CAST(? AS bytea) AS bytes, CAST('1.50' AS numeric) AS amount,
                       E'it\\'s ?' AS escaped, $tag$ ? $tag$ AS dollar, /* ? /* ? */ */ ? AS bound
                """, .integer(7), .integer(.max), .real(0.25), .blob(Data([0, 0x5C, 0xFF])), .text("x"))).first)
            #expect(row.values[0] == .integer(7))
            #expect(row.values[1] == .integer(.max))
            #expect(try row.bool("yes") == true)
            #expect(try row.bool("no") == false)
            #expect(try row.double("ratio") == 0.25)
            #expect(try row.string("at").hasPrefix("2026-01-02"))
            #expect(try row.data("bytes") == Data([0, 0x5C, 0xFF]))
            #expect(try row.string("amount") == "1.50")
            #expect(try row.string("escaped") == "it's ?")
            #expect(try row.string("dollar") == " ? ")
            #expect(try row.string("bound") == "x")
        }
    }

    @Test(.enabled(if: TestEngine.postgresEnabled))
    func postgresCommitOfAFailedTransactionThrows() async throws {
        try await TestEngine.postgres.withDatabase { database in
            try await database.migrate([Self.tokens])
            await #expect(throws: StorageError.self) {
                try await database.transaction { transaction in
                    try await transaction.execute(SQL("INSERT INTO tokens (token, owner) VALUES ('a', 'ann')"))
                    // The body swallows a failure; PostgreSQL has aborted the transaction anyway.
                    _ = try? await transaction.execute(SQL("INSERT INTO tokens (token, owner) VALUES ('a', 'ann')"))
                }
            }
            #expect(try await database.query(SQL("SELECT token FROM tokens")).isEmpty)
        }
    }

    @Test(.enabled(if: TestEngine.postgresEnabled))
    func postgresReconnectsAfterTheServerDropsTheConnection() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            let database = try await configuration.open(poolSize: 1)
            let admin = try await configuration.open(poolSize: 1)
            let pid = try await database.query(SQL("SELECT pg_backend_pid() AS pid"))[0].int64("pid")
            let killed = try await admin.query(SQL("SELECT pg_terminate_backend(CAST(? AS integer), 5000) AS done", .integer(pid)))
            #expect(try killed[0].bool("done"))
            await #expect(throws: StorageError.self) { try await database.query(SQL("SELECT 1")) }
            let newPID = try await database.query(SQL("SELECT pg_backend_pid() AS pid"))[0].int64("pid")
            #expect(newPID != pid)
            await database.close()
            await admin.close()
        }
    }

    @Test
    func sqliteFileSurvivesReopen() async throws {
        try await TestEngine.sqlite.withLocation { configuration in
            let first = try await configuration.open()
            try await first.migrate([Self.notes])
            try await first.execute(SQL("INSERT INTO notes (body) VALUES (?)", .text("kept")))
            let mode = try await first.query(SQL("PRAGMA journal_mode"))
            #expect(try mode[0].string("journal_mode") == "wal")
            await first.close()
            await #expect(throws: StorageError.self) { try await first.query(SQL("SELECT 1")) }

            let second = try await configuration.open()
            try await second.migrate([Self.notes])
            #expect(try await second.query(SQL("SELECT body FROM notes")).map { try $0.string("body") } == ["kept"])
            #expect(try await versions(second) == [1])
            await second.close()
        }
    }

    @Test
    func configurationParsesURLsAndHidesThePassword() throws {
        let postgres = try DatabaseConfiguration(url: "postgres://wallet:s3cr3t@db.internal:5433/passwright?sslmode=require")
        #expect(postgres.engine == .postgres)
        #expect(postgres.description == "postgres://wallet@db.internal:5433/passwright?sslmode=require")
        var dumped = ""
        dump(postgres, to: &dumped)
        #expect(!dumped.contains("s3cr3t"))
        #expect(try DatabaseConfiguration(url: "postgresql://h/db?password=s3cr3t").description.contains("s3cr3t") == false)

        #expect(try DatabaseConfiguration(url: "sqlite:./data/passwright.sqlite").description == "sqlite:./data/passwright.sqlite")
        #expect(try DatabaseConfiguration(url: "sqlite::memory:").engine == .sqlite)
        let wrong = #expect(throws: StorageError.self) { try DatabaseConfiguration(url: "mysql://root:s3cr3t@h/db") }
        #expect(wrong?.description.contains("s3cr3t") == false)
    }
}
