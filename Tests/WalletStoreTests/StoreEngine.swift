import Locking
import Foundation
import Storage
import Testing
@testable import WalletStore

/// The engines every Wallet store test runs on: a SQLite file and a real PostgreSQL.
///
/// PostgreSQL is always included unless `PASSWRIGHT_SKIP_POSTGRES=1` is set explicitly; without
/// `PASSWRIGHT_TEST_POSTGRES_URL` its cases fail, so CI cannot skip them by accident.
enum StoreEngine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let postgresEnabled = ProcessInfo.processInfo.environment["PASSWRIGHT_SKIP_POSTGRES"] != "1"
    static let selected: [StoreEngine] = postgresEnabled ? allCases : [.sqlite]

    var testDescription: String { rawValue }

    /// A private database location for one test (a temp SQLite file, or a fresh PostgreSQL schema),
    /// removed afterwards. Open it as often as the test needs: every open sees the same data.
    func withLocation<T>(_ body: (DatabaseConfiguration) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-store-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(.sqlite(path: folder.appendingPathComponent("wallet.sqlite").path))
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["PASSWRIGHT_TEST_POSTGRES_URL"], !url.isEmpty else {
                throw MissingPostgres()
            }
            let schema = "wallet_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
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

    /// A migrated store in a private location, closed afterwards.
    func withStore<T>(clock: TestClock = TestClock(), logCapacity: Int = 10_000, _ body: (WalletStore) async throws -> T) async throws -> T {
        try await withLocation { configuration in
            try await configuration.withStore(clock: clock, logCapacity: logCapacity, body)
        }
    }
}

extension DatabaseConfiguration {
    /// Opens the database, migrates a store over it, runs `body` and closes the database.
    func withStore<T>(clock: TestClock, logCapacity: Int = 10_000, _ body: (WalletStore) async throws -> T) async throws -> T {
        let database = try await open(poolSize: 4)
        do {
            let store = WalletStore(database: database, clock: clock, logCapacity: logCapacity)
            try await store.migrate()
            let result = try await body(store)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}

struct MissingPostgres: Error, CustomStringConvertible {
    var description: String {
        "PASSWRIGHT_TEST_POSTGRES_URL is not set. Run the tests against a throwaway server: "
            + "export PASSWRIGHT_TEST_POSTGRES_URL=$(scripts/postgres.sh start /tmp/pw-pg 54329), then "
            + "swift test --filter WalletStoreTests, then scripts/postgres.sh stop /tmp/pw-pg "
            + "(or set PASSWRIGHT_SKIP_POSTGRES=1 to leave PostgreSQL out on purpose)."
    }
}

/// A clock the test moves by hand, so leases and backoffs expire without waiting.
final class TestClock: WalletClock {
    private let now: Locked<Int64>

    /// Starts at 2023-11-14T22:13:20.250Z: a fraction of a second, to catch rounding.
    init(_ start: Int64 = 1_700_000_000_250) {
        now = Locked(start)
    }

    func nowMilliseconds() -> Int64 {
        now.withLock { $0 }
    }

    func advance(_ duration: Duration) {
        now.withLock { $0 += Milliseconds.of(duration) }
    }
}

/// An error of the test's own, to check the store rethrows a change closure's error unchanged.
struct RejectedChange: Error, Equatable {
    let serialNumber: String
}

/// Fixtures built at test time.
enum Fixture {
    static let passType = "pass.com.example.event"
    static let otherPassType = "pass.com.example.coupon"

    static func key(_ serial: String, type: String = passType) -> PassKey {
        PassKey(passTypeIdentifier: type, serialNumber: serial)
    }

    static func pass(_ serial: String, type: String = passType, template: String = "event", data: String = #"{"seat":"1A"}"#) -> NewPass {
        NewPass(key: key(serial, type: type), template: template, data: data, authenticationToken: "token-\(serial)-0123456789abcdef")
    }
}
