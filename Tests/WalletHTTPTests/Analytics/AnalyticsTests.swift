import Foundation
import Locking
import PassModel
import PasswrightTesting
import Testing
import WalletStore
@testable import WalletCore

/// Programme analytics over a scripted fortnight on a real store, with the clock moved by hand: every
/// kind of write adds to its day's counters exactly once (issuing, first and later devices, removals of
/// one and of the last device, updates, roll-outs, voids, pushes sent and failed by reason, holder
/// visits), the balances carry across a range's start, weeks sum their days, and the "now" figures
/// equal the registrations actually stored. On both engines.
@Suite(.timeLimit(.minutes(5))) struct AnalyticsTests {
    static let event = "pass.com.example.event"
    static let coupon = "pass.com.example.coupon"
    /// A Monday.
    static let monday = CivilDay("2026-11-30")!

    /// A clock the script sets to a day and hour.
    final class DayClock: WalletClock {
        private let milliseconds = Locked<Int64>(0)
        func set(_ day: CivilDay, hour: Int = 10, minute: Int = 0) {
            milliseconds.withLock { $0 = Int64(day.number) * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000) }
        }
        func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
    }

    static func pass(_ serial: String, template: String = "event", type: String = event, version: Int64 = 1) -> NewPass {
        NewPass(key: PassKey(passTypeIdentifier: type, serialNumber: serial), template: template, data: #"{"seat":"1A"}"#,
                authenticationToken: "token-\(serial)-0123456789abcdef", templateVersion: version)
    }

    static func key(_ serial: String, type: String = event) -> PassKey { PassKey(passTypeIdentifier: type, serialNumber: serial) }

    static func publish(_ store: WalletStore, _ template: String, digest: String) async throws {
        _ = try await store.saveTemplateVersion(NewTemplateVersion(
            name: template, files: [(path: "pass.json", bytes: Data(digest.utf8))], digest: digest, origin: .api))
    }

    static func write(_ store: WalletStore, _ serial: String, _ change: PassChange) async throws {
        let current = try #require(try await store.pass(key(serial)))
        guard case .written = try await store.writePass(current.key, expectedTag: current.updateTag, change: change) else {
            Issue.record("\(serial) not written")
            return
        }
    }

    static func counts(
        issued: Int = 0, installed: Int = 0, removed: Int = 0, updated: Int = 0, devicesAdded: Int = 0, devicesRemoved: Int = 0,
        pushesSent: Int = 0, pushesFailed: Int = 0, pageViews: Int = 0, downloads: Int = 0
    ) -> AnalyticsReport.Counts {
        AnalyticsReport.Counts(
            issued: issued, installed: installed, removed: removed, updated: updated, devicesAdded: devicesAdded, devicesRemoved: devicesRemoved,
            pushesSent: pushesSent, pushesFailed: pushesFailed, pageViews: pageViews, downloads: downloads)
    }

    @Test(arguments: Engine.selected)
    func aScriptedProgrammeCountsExactly(engine: Engine) async throws {
        let clock = DayClock()
        try await engine.withDatabase { database in
            let store = WalletStore(database: database, clock: clock)
            try await store.migrate()
            let analytics = AnalyticsService(store: store)
            let day = Self.monday

            // Monday: version 1 of `event`; 4 event passes and a coupon; 6 registrations (one a repeat)
            // on 4 passes, E1 with two devices; holder visits (one of an unknown pass counts nothing).
            clock.set(day)
            try await Self.publish(store, "event", digest: "v1")
            for serial in ["E1", "E2", "E3", "E4"] { _ = try await store.createPass(Self.pass(serial)) }
            _ = try await store.createPass(Self.pass("C1", template: "coupon", type: Self.coupon, version: 0))
            for (device, serial, type) in [("devA", "E1", Self.event), ("devB", "E1", Self.event), ("devA", "E2", Self.event), ("devC", "E3", Self.event), ("devD", "C1", Self.coupon), ("devA", "E1", Self.event)] {
                _ = try await store.register(deviceLibraryIdentifier: device, pushToken: "\(device)-token", pass: Self.key(serial, type: type))
            }
            try await store.recordHolderVisit(.pageView, pass: Self.key("E1"))
            try await store.recordHolderVisit(.pageView, pass: Self.key("E1"))
            try await store.recordHolderVisit(.download, pass: Self.key("E1"))
            try await store.recordHolderVisit(.pageView, pass: Self.key("nobody"))

            // Tuesday: E1 loses one of its two devices, E3 its only one; E2 changes and its push is accepted.
            clock.set(day.adding(days: 1))
            #expect(try await store.unregister(deviceLibraryIdentifier: "devB", pass: Self.key("E1")))
            #expect(try await store.unregister(deviceLibraryIdentifier: "devC", pass: Self.key("E3")))
            try await Self.write(store, "E2", PassChange(data: #"{"seat":"2B"}"#))
            let sent = try await store.claimPushes(instance: "test", limit: 10, lease: .seconds(30))
            #expect(sent.count == 1)
            try await store.completeDeliveredPushes(sent, at: clock.now())

            // Wednesday: version 2, rolled out to E4; E3 voided; E1 changes, its push is throttled,
            // then APNs says devA is gone (E1 and E2 lose their last device); the coupon's device has a bad token.
            clock.set(day.adding(days: 2))
            try await Self.publish(store, "event", digest: "v2")
            try await Self.write(store, "E4", PassChange(templateVersion: 2))
            try await Self.write(store, "E3", PassChange(voided: true))
            try await Self.write(store, "E1", PassChange(data: #"{"seat":"3C"}"#))
            let throttled = try await store.claimPushes(instance: "test", limit: 10, lease: .seconds(30))
            #expect(throttled.count == 1)
            #expect(try await store.retryPush(throttled[0], after: .seconds(60), error: "TooManyRequests"))
            clock.set(day.adding(days: 2), hour: 10, minute: 5)
            let gone = try await store.claimPushes(instance: "test", limit: 10, lease: .seconds(30))
            #expect(gone.count == 1)
            #expect(try await store.dropRegistration(deviceLibraryIdentifier: "devA", passTypeIdentifier: Self.event, unlessRegisteredAfter: nil) == 2)
            try await store.completePush(gone[0])
            #expect(try await store.dropDevice(deviceLibraryIdentifier: "devD"))

            // The next Monday: E5, on version 2, reaches a phone.
            clock.set(day.adding(days: 7))
            _ = try await store.createPass(Self.pass("E5", version: 2))
            _ = try await store.register(deviceLibraryIdentifier: "devE", pushToken: "devE-token", pass: Self.key("E5"))
            clock.set(day.adding(days: 8))

            // Every template, per day.
            let daily = try await analytics.report(AnalyticsService.Query(from: "2026-11-30", to: "2026-12-08"))
            #expect(daily.from == "2026-11-30" && daily.to == "2026-12-08" && daily.interval == .day && daily.template == nil)
            #expect(daily.periods.map(\.start) == (0...8).map { day.adding(days: $0).description })
            let expected: [(AnalyticsReport.Counts, active: Int, devices: Int)] = [
                (Self.counts(issued: 5, installed: 4, devicesAdded: 5, pageViews: 2, downloads: 1), 4, 5),
                (Self.counts(removed: 1, updated: 1, devicesRemoved: 2, pushesSent: 1), 3, 3),
                (Self.counts(removed: 3, updated: 3, devicesRemoved: 3, pushesFailed: 3), 0, 0),
                (Self.counts(), 0, 0), (Self.counts(), 0, 0), (Self.counts(), 0, 0), (Self.counts(), 0, 0),
                (Self.counts(issued: 1, installed: 1, devicesAdded: 1), 1, 1),
                (Self.counts(), 1, 1),
            ]
            for (period, (counts, active, devices)) in zip(daily.periods, expected) {
                #expect(period.counts == counts, "\(period.start)")
                #expect(period.activePasses == active && period.devices == devices, "\(period.start): \(period.activePasses) active, \(period.devices) devices")
            }
            #expect(daily.totals == Self.counts(issued: 6, installed: 5, removed: 4, updated: 4, devicesAdded: 6, devicesRemoved: 5, pushesSent: 1, pushesFailed: 3, pageViews: 2, downloads: 1))
            #expect(daily.pushFailuresByReason == ["TooManyRequests": 1, "Unregistered": 1, "BadDeviceToken": 1])
            #expect(daily.versions == [
                AnalyticsReport.VersionMark(template: "event", version: 1, day: "2026-11-30"),
                AnalyticsReport.VersionMark(template: "event", version: 2, day: "2026-12-02"),
            ])
            // "Now" is what the registrations table holds: E5 on devE; also from a range that ended before.
            #expect(daily.activePasses == 1 && daily.devices == 1)
            let earlier = try await analytics.report(AnalyticsService.Query(from: "2026-11-30", to: "2026-11-30"))
            #expect(earlier.periods.map(\.activePasses) == [4] && earlier.activePasses == 1 && earlier.devices == 1)
            #expect(try await store.registrationCount(for: Self.key("E5")) == 1)
            #expect(try await store.registrationCount(for: Self.key("E1")) == 0)

            // One template: its passes, and the pushes (per pass type, under no template).
            let events = try await analytics.report(AnalyticsService.Query(template: "event", from: "2026-11-30", to: "2026-12-02"))
            #expect(events.periods.map(\.counts) == [
                Self.counts(issued: 4, installed: 3, devicesAdded: 4, pageViews: 2, downloads: 1),
                Self.counts(removed: 1, updated: 1, devicesRemoved: 2, pushesSent: 1),
                Self.counts(removed: 2, updated: 3, devicesRemoved: 2, pushesFailed: 3),
            ])
            #expect(events.periods.map(\.activePasses) == [3, 2, 0] && events.periods.map(\.devices) == [4, 2, 0])
            #expect(events.versions.map(\.version) == [1, 2])

            // A range that starts later carries what was active before it.
            let later = try await analytics.report(AnalyticsService.Query(from: "2026-12-01", to: "2026-12-01"))
            #expect(later.periods.map(\.activePasses) == [3] && later.periods.map(\.devices) == [3])
            #expect(later.versions.isEmpty)

            // Weeks: Monday to Sunday, named by the Monday, from the Monday of `from`'s week.
            let weekly = try await analytics.report(AnalyticsService.Query(from: "2026-12-02", to: "2026-12-08", interval: "week"))
            #expect(weekly.from == "2026-11-30" && weekly.periods.map(\.start) == ["2026-11-30", "2026-12-07"])
            #expect(weekly.periods.map(\.counts) == [
                Self.counts(issued: 5, installed: 4, removed: 4, updated: 4, devicesAdded: 5, devicesRemoved: 5, pushesSent: 1, pushesFailed: 3, pageViews: 2, downloads: 1),
                Self.counts(issued: 1, installed: 1, devicesAdded: 1),
            ])
            #expect(weekly.periods.map(\.activePasses) == [0, 1] && weekly.periods.map(\.devices) == [0, 1])

            // Versions are counted apart: the roll-out's update and E5 under version 2.
            let rollups = try await store.analytics(template: "event", fromDay: day.number, toDay: day.number + 8, perVersion: true).rollups
            func count(_ metric: AnalyticsMetric, version: Int64) -> Int {
                rollups.filter { $0.metric == metric && $0.version == version && $0.template == "event" }.map(\.count).reduce(0, +)
            }
            #expect(count(.updated, version: 2) == 1 && count(.updated, version: 1) == 3)
            #expect(count(.issued, version: 2) == 1 && count(.issued, version: 1) == 4)

            // Defaults: to is today, from 29 days before it (12 weeks by week).
            let recent = try await analytics.report(AnalyticsService.Query())
            #expect(recent.to == "2026-12-08" && recent.from == "2026-11-09" && recent.periods.count == 30)
            let recentWeeks = try await analytics.report(AnalyticsService.Query(interval: "week"))
            #expect(recentWeeks.periods.count == 12 && recentWeeks.periods.last?.start == "2026-12-07")

            // Folding past days' shards into one row per counter changes no figure.
            #expect(try await analytics.compact(now: clock.now()) > 0)
            #expect(try await analytics.compact(now: clock.now()) == 0, "every past shard was folded")
            let folded = try await analytics.report(AnalyticsService.Query(from: "2026-11-30", to: "2026-12-08"))
            #expect(folded.periods == daily.periods && folded.totals == daily.totals && folded.pushFailuresByReason == daily.pushFailuresByReason)

            // Refusals name the parameter.
            for (query, names) in [
                (AnalyticsService.Query(interval: "month"), "interval"), (AnalyticsService.Query(from: "2026-12-09", to: "2026-12-08"), "from"),
                (AnalyticsService.Query(from: "2026-02-30"), "from"), (AnalyticsService.Query(to: "yesterday"), "to"),
                (AnalyticsService.Query(from: "2025-01-01", to: "2026-12-08"), "366"),
                (AnalyticsService.Query(from: "2024-01-01", to: "2026-12-08", interval: "week"), "106"),
            ] {
                do {
                    _ = try await analytics.report(query)
                    Issue.record("\(query) was accepted")
                } catch ServiceError.invalid(let message) {
                    #expect(message.contains(names), "\(message)")
                }
            }
            await #expect(throws: ServiceError.self) { try await analytics.report(AnalyticsService.Query(template: "nope")) }
        }
    }

    @Test(arguments: Engine.selected)
    func anErasedPassLosingItsDevicesCountsThemRemoved(engine: Engine) async throws {
        let clock = DayClock()
        try await engine.withDatabase { database in
            let store = WalletStore(database: database, clock: clock)
            try await store.migrate()
            clock.set(Self.monday)
            try await Self.publish(store, "event", digest: "v1")
            _ = try await store.createPass(Self.pass("X1"))
            for device in ["d1", "d2"] { _ = try await store.register(deviceLibraryIdentifier: device, pushToken: "t-\(device)", pass: Self.key("X1")) }
            let current = try #require(try await store.pass(Self.key("X1")))
            var erasure = PassWriteRequest(key: current.key, expectedTag: current.updateTag, change: PassChange(data: "{}", voided: true))
            erasure.erases = true
            _ = try await store.writePasses([erasure])
            clock.set(Self.monday.adding(days: 40))
            #expect(try await store.dropErasedRegistrations(before: clock.now().addingTimeInterval(-86_400)) == 2)
            let totals = try await store.analyticsTotals()
            #expect(totals.activePasses["event"] == 0 && totals.devices["event"] == 0)
            let day40 = try await store.analytics(template: nil, fromDay: Self.monday.number + 40, toDay: Self.monday.number + 40).rollups
            #expect(Set(day40.map { "\($0.metric.name)=\($0.count)" }) == ["devices.removed=2", "pass.removed=1"])
        }
    }

    @Test(arguments: Engine.selected)
    func withCountingOffNothingIsCounted(engine: Engine) async throws {
        let clock = DayClock()
        try await engine.withDatabase { database in
            let store = WalletStore(database: database, clock: clock, countsAnalytics: false)
            try await store.migrate()
            clock.set(Self.monday)
            try await Self.publish(store, "event", digest: "v1")
            _ = try await store.createPass(Self.pass("O1"))
            _ = try await store.register(deviceLibraryIdentifier: "d1", pushToken: "t1", pass: Self.key("O1"))
            try await store.recordHolderVisit(.pageView, pass: Self.key("O1"))
            #expect(try await store.analytics(template: nil, fromDay: Self.monday.number, toDay: Self.monday.number).rollups.isEmpty)
            #expect(try await store.registrationCount(for: Self.key("O1")) == 1, "the writes themselves landed")
        }
    }
}
