import Foundation
import Storage
import Testing

/// The database engines storage-backed tests run on, as `@Test(arguments:)`.
///
/// PostgreSQL is always included unless `PASSWRIGHT_SKIP_POSTGRES=1` is set explicitly; without
/// `PASSWRIGHT_TEST_POSTGRES_URL` its cases fail (``MissingPostgres``), so CI cannot skip them by
/// accident.
public enum TestEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// A SQLite file in a temporary folder.
    case sqlite
    /// SQLite in memory: one connection's own database, so only for tests that open it once.
    case sqliteMemory
    /// A fresh schema in the PostgreSQL at `PASSWRIGHT_TEST_POSTGRES_URL`.
    case postgres

    /// Whether the PostgreSQL cases run (they do unless `PASSWRIGHT_SKIP_POSTGRES=1`).
    public static let postgresEnabled = ProcessInfo.processInfo.environment["PASSWRIGHT_SKIP_POSTGRES"] != "1"

    /// The engines a test that may reopen its database runs on: a SQLite file and PostgreSQL.
    public static let selected: [TestEngine] = postgresEnabled ? [.sqlite, .postgres] : [.sqlite]

    /// ``selected`` plus in-memory SQLite, for tests of the storage layer itself that open once.
    public static let selectedWithMemory: [TestEngine] = [.sqlite, .sqliteMemory] + (postgresEnabled ? [.postgres] : [])

    /// The case name, as the test report shows the argument.
    public var testDescription: String { rawValue }

    /// A private, empty database location for one test (a temp SQLite file, in-memory SQLite or a
    /// fresh PostgreSQL schema), removed afterwards. Open it as often as the test needs: every open
    /// sees the same data, except in memory.
    public func withLocation<T>(_ body: (DatabaseConfiguration) async throws -> T) async throws -> T {
        switch self {
        case .sqliteMemory:
            return try await body(.sqliteInMemory)
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("passwright-db-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            // A nested path proves the engine creates the parent folders.
            return try await body(try DatabaseConfiguration(url: "sqlite:\(folder.path)/nested/passwright.sqlite"))
        case .postgres:
            return try await Self.withPostgresSchema { url in try await body(try DatabaseConfiguration(url: url)) }
        }
    }

    /// Opens a private database for one test and closes it afterwards.
    @discardableResult
    public func withDatabase<T>(poolSize: Int = 4, _ body: (any Database) async throws -> T) async throws -> T {
        try await withLocation { configuration in
            let database = try await configuration.open(poolSize: poolSize)
            return try await withCleanup { try await body(database) } cleanup: { await database.close() }
        }
    }

    /// A fresh PostgreSQL schema for one test, as a database URL (`…?options=-csearch_path%3D<schema>`)
    /// that a `passwright serve` child can take too; dropped afterwards, whatever happened.
    public static func withPostgresSchema<T>(_ body: (String) async throws -> T) async throws -> T {
        guard let url = ProcessInfo.processInfo.environment["PASSWRIGHT_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw MissingPostgres()
        }
        let schema = "test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        let admin = try await DatabaseConfiguration(url: url).open(poolSize: 1)
        // The schema name is generated above from hex digits only, never from input.
        try await admin.execute(SQL(unsafeText: "CREATE SCHEMA \(schema)"))
        do {
            let separator = url.contains("?") ? "&" : "?"
            let result = try await body("\(url)\(separator)options=-csearch_path%3D\(schema)")
            try await admin.execute(SQL(unsafeText: "DROP SCHEMA \(schema) CASCADE"))
            await admin.close()
            return result
        } catch {
            _ = try? await admin.execute(SQL(unsafeText: "DROP SCHEMA \(schema) CASCADE"))
            await admin.close()
            throw error
        }
    }
}

/// Thrown by the PostgreSQL cases when `PASSWRIGHT_TEST_POSTGRES_URL` is not set, saying how to set it.
public struct MissingPostgres: Error, CustomStringConvertible {
    /// The error; its description says how to set the variable.
    public init() {}

    /// How to run the tests against a throwaway PostgreSQL, or leave it out on purpose.
    public var description: String {
        "PASSWRIGHT_TEST_POSTGRES_URL is not set. Run the tests against a throwaway server: "
            + "export PASSWRIGHT_TEST_POSTGRES_URL=$(scripts/postgres.sh start /tmp/pw-pg), then "
            + "swift test, then scripts/postgres.sh stop /tmp/pw-pg "
            + "(or set PASSWRIGHT_SKIP_POSTGRES=1 to leave PostgreSQL out on purpose)."
    }
}
