import Foundation
import Locking
import PassCompiler
import PassModel
import PasswrightTesting
import Testing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// Changes that show the holder a notification wait for a polite moment; silent ones never wait.
/// Driven through the service with a clock the test moves, and the pushes counted as a push worker
/// would send them (claim, then complete).
@Suite("Notification etiquette")
struct NotificationEtiquetteTests {
    /// The loyalty sample's location (Berlin, 13.4° E) puts its holders at UTC+1.
    static let key = PassKey(passTypeIdentifier: "pass.dev.passwright.loyalty", serialNumber: "POLITE-1")

    @Test("a notifying change in the holder's quiet hours waits until they end; a silent change at that moment goes at once", arguments: Engine.selected)
    func quietHours(engine: Engine) async throws {
        // 22:30 in Berlin (21:30 UTC): inside the default 22:00–07:00.
        try await withEtiquette(engine: engine, at: Self.day(0, "21:30")) { service, store, clock, releaser in
            let notifying = try await service.update(Self.key, Self.data(["points": .number(1500)]), source: "api")
            #expect(notifying.changed)
            #expect(notifying.heldUntil == Self.date(Self.day(1, "06:00")), "07:00 in Berlin")
            #expect(try await Self.pushes(store) == 0, "nothing is pushed overnight")
            #expect(try await Self.points(store) == 1280, "the pass itself is unchanged until then")

            let silent = try await service.update(Self.key, Self.data(["member": .object(["name": .string("Ada O.")])]), source: "api")
            #expect(silent.heldUntil == Self.date(Self.day(1, "06:00")), "the held change still waits")
            #expect(try await Self.pushes(store) == 1, "a silent refresh is not held back")
            #expect(try await Self.member(store) == "Ada O.")
            #expect(try await Self.points(store) == 1280)

            clock.set(Self.day(1, "05:59"))
            #expect(await releaser.releaseDue() == 0, "not before the quiet hours end")
            clock.set(Self.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await Self.points(store) == 1500)
            #expect(try await Self.member(store) == "Ada O.", "the silent edit is kept")
            #expect(try await Self.pushes(store) == 1, "one push brings the held change")
            #expect(try await store.holdCount() == 0)
        }
    }

    @Test("two notifying changes a minute apart, right after a notification, fold into one push five minutes after it", arguments: Engine.selected)
    func spacing(engine: Engine) async throws {
        try await withEtiquette(engine: engine, at: Self.day(0, "12:00")) { service, store, clock, releaser in
            let first = try await service.update(Self.key, Self.data(["points": .number(1)]), source: "api")
            #expect(first.heldUntil == nil, "the first notification in a while goes at once")
            #expect(try await Self.pushes(store) == 1)

            clock.set(Self.day(0, "12:01"))
            let second = try await service.update(Self.key, Self.data(["points": .number(2)]), source: "api")
            clock.set(Self.day(0, "12:02"))
            let third = try await service.update(Self.key, Self.data(["points": .number(3)]), source: "api")
            #expect(second.heldUntil == Self.date(Self.day(0, "12:05")))
            #expect(third.heldUntil == second.heldUntil, "a later edit folds into the hold, it does not push it back")
            #expect(try await Self.pushes(store) == 0)
            #expect(try await store.holdCount() == 1)

            clock.set(Self.day(0, "12:05"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await Self.points(store) == 3, "the latest edit")
            #expect(try await Self.pushes(store) == 1, "one push for both")
        }
    }

    @Test("a template's passwright.json sets its own quiet hours and zone")
    func templateSettings() throws {
        let settings = try TemplateSettings.parse(Data(#"{"quietHours": "21:30-08:00", "timeZone": "America/New_York"}"#.utf8))
        #expect(settings.quietHours == .hours(QuietHours(start: 21 * 60 + 30, end: 8 * 60)))
        #expect(settings.timeZone.identifier == "America/New_York")
        #expect(try TemplateSettings.parse(Data(#"{"quietHours": "off"}"#.utf8)).quietHours == .off)
        #expect(throws: PassCompilerError.self) { try TemplateSettings.parse(Data(#"{"quietHours": "late", "zone": 1}"#.utf8)) }
    }

    @Test("quiet hours across midnight and within a day end where they should")
    func quietHoursEnd() {
        let night = QuietHours(start: 22 * 60, end: 7 * 60)
        #expect(night.end(around: Self.date("2026-12-01T23:10:00Z"), secondsFromGMT: 0) == Self.date("2026-12-02T07:00:00Z"))
        #expect(night.end(around: Self.date("2026-12-02T03:00:00Z"), secondsFromGMT: 0) == Self.date("2026-12-02T07:00:00Z"))
        #expect(night.end(around: Self.date("2026-12-02T07:00:00Z"), secondsFromGMT: 0) == nil)
        #expect(night.end(around: Self.date("2026-12-02T12:00:00Z"), secondsFromGMT: 0) == nil)
        // 23:00 UTC is 08:00 in Tokyo: outside; 13:30 UTC is 22:30 there: inside, until 22:00 UTC.
        #expect(night.end(around: Self.date("2026-12-01T23:00:00Z"), secondsFromGMT: 9 * 3600) == nil)
        #expect(night.end(around: Self.date("2026-12-01T13:30:00Z"), secondsFromGMT: 9 * 3600) == Self.date("2026-12-01T22:00:00Z"))
        let lunch = QuietHours(start: 12 * 60, end: 13 * 60)
        #expect(lunch.end(around: Self.date("2026-12-01T12:30:00Z"), secondsFromGMT: 0) == Self.date("2026-12-01T13:00:00Z"))
        #expect(lunch.end(around: Self.date("2026-12-01T13:30:00Z"), secondsFromGMT: 0) == nil)
    }

    @Test("pushes are spaced at the rate: 2,000 at 500 a second span four seconds, and idle time is not banked")
    func pacer() {
        var pacer = PushPacer(rate: 500)
        let waits = (0..<2000).map { _ in pacer.take(at: 100) }
        #expect(waits.first == 0)
        #expect(abs(waits.last! - 3.998) < 1e-9)
        #expect(pacer.take(at: 200) == 0, "after a pause the next push goes at once, with no burst owed")
        #expect(abs(pacer.take(at: 200) - 0.002) < 1e-9)
    }

    // MARK: Fixtures

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

    func withEtiquette(
        engine: Engine, at start: String, _ body: (PassService, WalletStore, MovableClock, HoldReleaser) async throws -> Void
    ) async throws {
        let clock = MovableClock(Self.date(start))
        try await engine.withDatabase { database in
            let store = WalletStore(database: database, clock: clock)
            try await store.migrate()
            let releaser = HoldReleaser(store: store, logger: .init(label: "test", level: .error))
            let service = PassService(
                store: store, templates: try await importedTemplates(into: store), clock: clock,
                notifications: .standard, holds: releaser)
            let token = "etiquette-token-\(UUID().uuidString)"
            guard case .object(let record) = try JSONValue.parse(try Samples.record("loyalty", authenticationToken: token).data) else {
                throw FixtureError("the loyalty sample record is not an object")
            }
            _ = try await service.issue(PassService.Issue(template: "loyalty", serialNumber: Self.key.serialNumber, data: record, overrides: [:]))
            _ = try await service.register(deviceLibraryIdentifier: "etiquette-device", pushToken: "00ff", for: Self.key)
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
        let date = NotificationEtiquetteTests.date(text)
        milliseconds.withLock { $0 = Int64(date.timeIntervalSince1970 * 1000) }
    }

    func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
}
