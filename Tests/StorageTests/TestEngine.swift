import Foundation
import Storage
import Testing

/// The engines every behaviour test runs on.
///
/// PostgreSQL is always included unless `PASSWRIGHT_SKIP_POSTGRES=1` is set explicitly; without
/// `PASSWRIGHT_TEST_POSTGRES_URL` its cases fail, so CI cannot skip them by accident.
enum TestEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqliteFile
    case sqliteMemory
    case postgres

    static let postgresEnabled = ProcessInfo.processInfo.environment["PASSWRIGHT_SKIP_POSTGRES"] != "1"
    static let selected: [TestEngine] = postgresEnabled ? allCases : [.sqliteFile, .sqliteMemory]

    var testDescription: String { rawValue }

    /// A private store for one test (a temp folder or a fresh PostgreSQL schema), removed afterwards.
    func withStore<T>(_ body: (DatabaseConfiguration) async throws -> T) async throws -> T {
        switch self {
        case .sqliteMemory:
            return try await body(.sqliteInMemory)
        case .sqliteFile:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storage-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            // A nested path proves the engine creates the parent folders.
            return try await body(try DatabaseConfiguration(url: "sqlite:\(folder.path)/nested/passwright.sqlite"))
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["PASSWRIGHT_TEST_POSTGRES_URL"], !url.isEmpty else {
                throw MissingPostgres()
            }
            let schema = "test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
            let admin = try await DatabaseConfiguration(url: url).open(poolSize: 1)
            // The schema name is generated above from hex digits only, never from input.
            try await admin.execute(SQL(unsafeText: "CREATE SCHEMA \(schema)"))
            do {
                let separator = url.contains("?") ? "&" : "?"
                let result = try await body(try DatabaseConfiguration(url: "\(url)\(separator)options=-csearch_path%3D\(schema)"))
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

    /// Opens a private database for one test and closes it afterwards.
    func withDatabase<T>(poolSize: Int = 4, _ body: (any Database) async throws -> T) async throws -> T {
        try await withStore { configuration in
            let database = try await configuration.open(poolSize: poolSize)
            do {
                let result = try await body(database)
                await database.close()
                return result
            } catch {
                await database.close()
                throw error
            }
        }
    }
}

struct MissingPostgres: Error, CustomStringConvertible {
    var description: String {
        "PASSWRIGHT_TEST_POSTGRES_URL is not set. Run the tests against a throwaway server: "
            + "export PASSWRIGHT_TEST_POSTGRES_URL=$(scripts/postgres.sh start /tmp/pw-pg 54329), then "
            + "swift test --filter StorageTests, then scripts/postgres.sh stop /tmp/pw-pg "
            + "(or set PASSWRIGHT_SKIP_POSTGRES=1 to leave PostgreSQL out on purpose)."
    }
}

/// An error of the test's own, to check a transaction rethrows the body's error unchanged.
struct Abort: Error, Equatable {}
