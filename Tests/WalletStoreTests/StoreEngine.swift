import Locking
import Foundation
import PassModel
import PasswrightTesting
import Storage
@testable import WalletStore

/// The engines every Wallet store test runs on: a SQLite file and a real PostgreSQL (the test kit's
/// ``TestEngine/selected``), under the name these suites know them by.
typealias StoreEngine = TestEngine

extension TestEngine {
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
        return try await withCleanup {
            let store = WalletStore(database: database, clock: clock, logCapacity: logCapacity)
            try await store.migrate()
            return try await body(store)
        } cleanup: {
            await database.close()
        }
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
