import Foundation
import Locking
import PassModel
import PasswrightTesting
import Testing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// The notification etiquette's fixture: a pass service with a clock the test moves, the sample
/// pass ``key`` with a registered device, and the pushes counted as a push worker would send them.
enum Etiquette {
    /// The loyalty sample's location (Berlin, 13.4° E) puts its holders at UTC+1.
    static let key = PassKey(passTypeIdentifier: "pass.dev.passwright.loyalty", serialNumber: "POLITE-1")

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// A UTC time of day, `offset` days after tomorrow: later than the test identities' validity
    /// starts (they are made when the tests run), wherever in the day the run falls.
    static func day(_ offset: Int, _ time: String) -> String {
        let tomorrow = (Int(Date().timeIntervalSince1970) / 86_400 + 1 + offset) * 86_400
        let formatter = ISO8601DateFormatter()
        let day = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(tomorrow))).prefix(10)
        return "\(day)T\(time.count == 5 ? time + ":00" : time)Z"
    }

    static func data(_ members: JSONObject) -> PassService.Change {
        PassService.Change(data: .object(members), overrides: [:], voided: nil)
    }

    static func record(_ store: WalletStore) async throws -> JSONValue {
        try PassService.value(try #require(try await store.pass(key)).data)
    }

    static func points(_ store: WalletStore) async throws -> Double? {
        guard case .object(let record) = try await record(store), case .number(let points)? = record["points"] else { return nil }
        return points
    }

    static func member(_ store: WalletStore) async throws -> String? {
        guard case .object(let record) = try await record(store), case .object(let member)? = record["member"],
              case .string(let name)? = member["name"] else { return nil }
        return name
    }

    /// Sends what is due as a push worker would, and says how many pushes that was.
    static func pushes(_ store: WalletStore) async throws -> Int {
        let jobs = try await store.claimPushes(instance: "etiquette-test", limit: 100, lease: .seconds(60))
        for job in jobs { _ = try await store.completePush(job) }
        return jobs.count
    }

    /// A pass service over `engine` with the standard etiquette (22:00–07:00, five minutes), its clock
    /// at `start`, the sample templates imported and the pass ``key`` issued from `loyalty` with one
    /// registered device; `folder` replaces the sample templates (a `loyalty` folder in it is issued from).
    static func with(
        engine: Engine, at start: String, folder: URL = Samples.templatesFolder,
        _ body: (PassService, WalletStore, MovableClock, HoldReleaser) async throws -> Void
    ) async throws {
        let clock = MovableClock(Self.date(start))
        try await engine.withDatabase { database in
            let store = WalletStore(database: database, clock: clock)
            try await store.migrate()
            let service = PassService(store: store, templates: try await importedTemplates(into: store, folder: folder), clock: clock, notifications: .standard)
            let releaser = HoldReleaser(passes: service, logger: .init(label: "test", level: .error))
            let token = "etiquette-token-\(UUID().uuidString)"
            guard case .object(let record) = try JSONValue.parse(try Samples.record("loyalty", authenticationToken: token).data) else {
                throw FixtureError("the loyalty sample record is not an object")
            }
            _ = try await service.issue(PassService.Issue(template: "loyalty", serialNumber: key.serialNumber, data: record, overrides: [:]), origin: .api)
            _ = try await service.register(deviceLibraryIdentifier: "etiquette-device", pushToken: "00ff", for: key)
            try await body(service, store, clock, releaser)
        }
    }
}

/// A clock the test sets.
final class MovableClock: WalletClock {
    private let milliseconds: Locked<Int64>

    init(_ date: Date) {
        milliseconds = Locked(Int64(date.timeIntervalSince1970 * 1000))
    }

    func set(_ text: String) {
        let date = Etiquette.date(text)
        milliseconds.withLock { $0 = Int64(date.timeIntervalSince1970 * 1000) }
    }

    func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
}
