import Foundation
import Locking
import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// The event log: every write appends its event in its own transaction, readers page it in commit
/// order with a cursor, and old events are pruned; on SQLite and PostgreSQL.
@Suite struct EventLogStoreTests {
    /// Every event from the start, in order. PostgreSQL shows an event once every transaction older
    /// than its own has finished, in any database of the server (other suites run beside this one), so
    /// this waits, up to a minute, for the count when one is expected.
    static func all(_ store: WalletStore, expecting count: Int? = nil) async throws -> [WalletEvent] {
        for _ in 0..<6_000 {
            var events: [WalletEvent] = []
            var cursor = EventCursor.start
            while true {
                let page = try await store.events(after: cursor, limit: 100)
                events += page
                guard let last = page.last else { break }
                cursor = last.cursor
            }
            if count == nil || events.count >= count! { return events }
            try await Task.sleep(for: .milliseconds(10))
        }
        return []
    }

    @Test(arguments: StoreEngine.selected)
    func registrationEventsCountDevicesUpToABound(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let key = try await store.createPass(Fixture.pass("crowded"), origin: .api).key
            let bound = WalletStore.countedDevices
            for index in 0...bound {
                _ = try await store.register(deviceLibraryIdentifier: "device-\(index)", pushToken: "aa\(index)", pass: key)
            }
            _ = try await store.unregister(deviceLibraryIdentifier: "device-0", pass: key)
            let events = try await Self.all(store, expecting: bound + 3).filter { $0.pass == key }
            let devices = events.filter { $0.type == .passInstalled }.map(\.payload["devices"])
            try #require(devices.count == bound + 1)
            // Exact up to the bound (the first device is 1: installed), the bound beyond it.
            #expect(devices.prefix(bound) == ArraySlice((1...bound).map { JSONValue.number(Double($0)) }))
            #expect(devices.last == .number(Double(bound)), "the device past the bound still counts \(bound)")
            let removed = try #require(events.last { $0.type == .passRemoved })
            #expect(removed.payload["devices"] == .number(Double(bound)) && removed.payload["allDevicesRemoved"] == .bool(false))
            #expect(try await store.registrationCount(for: key) == bound, "the pass's own count is exact")
        }
    }

    @Test(arguments: StoreEngine.selected)
    func everyWriteAppendsItsEventOnce(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let files = [(path: "pass.json", bytes: Data("{}".utf8))]
            _ = try await store.saveTemplateVersion(NewTemplateVersion(name: "event", files: files, digest: "v1", origin: WriteOrigin(actor: "console", source: .api)))
            var new = Fixture.pass("e1")
            new.templateVersion = 1
            let key = try await store.createPass(new, origin: .api).key
            _ = try await store.updatePass(key, source: "api") { _ in PassChange(data: #"{"seat":"2B"}"#) }
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa1", pass: key)
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa9", pass: key)  // again: no event
            _ = try await store.register(deviceLibraryIdentifier: "device-2", pushToken: "aa2", pass: key)
            _ = try await store.unregister(deviceLibraryIdentifier: "device-2", pass: key)
            _ = try await store.updatePass(key, source: "console") { _ in PassChange(voided: true) }
            let job = try #require(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).first)
            #expect(try await store.retryPush(job, after: .seconds(60), error: "TooManyRequests"))
            #expect(try await store.dropDevice(deviceLibraryIdentifier: "device-1"))
            // A write that fails appends nothing.
            await #expect(throws: WalletStoreError.self) { _ = try await store.createPass(new) }

            let events = try await Self.all(store, expecting: 9)
            try #require(events.count == 9, "\(events.map(\.type))")
            #expect(events.map(\.type) == [
                .templatePublished, .passIssued, .passUpdated, .passInstalled, .passInstalled, .passRemoved, .passVoided, .pushFailed, .deviceGone,
            ], "\(events.map(\.type))")
            #expect(Set(events.map(\.id)).count == events.count, "ids are unique")
            #expect(events[0].template == "event" && events[0].actor == "console" && events[0].payload["version"] == .number(1))
            #expect(events[1].pass == key && events[1].template == "event" && events[1].actor == "api")
            #expect(events[2].payload["changes"] == .array([.string("data.seat")]))
            #expect(events[3].payload["devices"] == .number(1) && events[4].payload["devices"] == .number(2))
            #expect(events[5].payload["devices"] == .number(1) && events[5].payload["allDevicesRemoved"] == .bool(false))
            #expect(events[6].actor == "console" && events[6].payload["changes"] == .array([.string("voided")]))
            #expect(events[7].pass == nil && events[7].payload["reason"] == .string("TooManyRequests"))
            #expect(events[8].pass == key && events[8].payload["reason"] == .string("BadDeviceToken") && events[8].payload["allDevicesRemoved"] == .bool(true))
            // No device identifier or push token in any payload.
            for event in events {
                let text = String(decoding: JSONValue.object(event.payload).serialized(sortedKeys: true), as: UTF8.self)
                #expect(!text.contains("device-") && !text.contains("aa1") && !text.contains("aa2") && !text.contains("token-"), "\(text)")
            }
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aRollOutFinishesOnceWhenNoPassIsBehind(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let files = [(path: "pass.json", bytes: Data("{}".utf8))]
            _ = try await store.saveTemplateVersion(NewTemplateVersion(name: "event", files: files, digest: "v1", origin: WriteOrigin(actor: "test", source: .api)))
            var new = Fixture.pass("r1")
            new.templateVersion = 1
            let key = try await store.createPass(new).key
            _ = try await store.saveTemplateVersion(NewTemplateVersion(name: "event", files: files, digest: "v2", origin: WriteOrigin(actor: "test", source: .api)))
            #expect(try await !store.finishRollout("event", version: 2), "a pass is still behind")
            _ = try await store.updatePass(key, source: "template v2") { _ in PassChange(templateVersion: 2) }
            #expect(try await store.finishRollout("event", version: 2))
            #expect(try await !store.finishRollout("event", version: 2), "once")
            let finished = try await Self.all(store, expecting: 5).filter { $0.type == .rolloutFinished }
            #expect(finished.count == 1)
            #expect(finished.first?.payload["version"] == .number(2) && finished.first?.payload["passes"] == .number(1))
        }
    }

    @Test(arguments: StoreEngine.selected)
    func pagesFollowTheCursorAndTheFilters(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            for index in 0..<250 {
                _ = try await store.createPass(Fixture.pass(String(format: "p%03d", index), template: index % 2 == 0 ? "even" : "odd"))
            }
            let all = try await Self.all(store, expecting: 250)
            #expect(all.count == 250)
            #expect(all.map { $0.pass!.serialNumber } == (0..<250).map { String(format: "p%03d", $0) }, "commit order")
            let first = try await store.events(after: .start, limit: 100)
            let second = try await store.events(after: first.last!.cursor, limit: 100)
            #expect(first.count == 100 && second.first?.pass?.serialNumber == "p100")
            // The cursor survives a round trip through text, as a consumer keeps it.
            let resumed = try await store.events(after: try #require(EventCursor(first.last!.cursor.description)), limit: 1)
            #expect(resumed.first?.pass?.serialNumber == "p100")
            let odd = try await store.events(after: .start, template: "odd", limit: 1_000)
            #expect(odd.count == 125 && odd.allSatisfy { $0.template == "odd" })
            #expect(try await store.events(after: .start, types: [.passVoided], limit: 1_000).isEmpty)
            #expect(try await store.events(after: .start, types: [.passIssued, .passVoided], limit: 1_000).count == 250)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func pruningRemovesOnlyEventsPastTheCutoff(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            for index in 0..<5 { _ = try await store.createPass(Fixture.pass("old\(index)")) }
            clock.advance(.seconds(3600))
            for index in 0..<3 { _ = try await store.createPass(Fixture.pass("new\(index)")) }
            let cutoff = clock.now().addingTimeInterval(-1800)
            #expect(try await store.pruneEvents(before: cutoff, limit: 2) == 2)
            #expect(try await store.pruneEvents(before: cutoff, limit: 100) == 3)
            #expect(try await store.pruneEvents(before: cutoff, limit: 100) == 0)
            #expect(try await Self.all(store, expecting: 3).map { $0.pass!.serialNumber } == ["new0", "new1", "new2"])
        }
    }

    /// On PostgreSQL a transaction that drew its event's id first may commit last. A reader must not
    /// move its cursor past that event before it commits: the later one stays hidden until then.
    @Test func aLaterCommitDoesNotOvertakeAnEarlierTransactionsEvent() async throws {
        guard StoreEngine.selected.contains(.postgres) else { return }
        try await StoreEngine.postgres.withStore { store in
            let holding = Gate()
            let release = Gate()
            async let slow: Void = store.database.transaction { transaction in
                try await store.appendEvents([WalletEventDraft(type: .pushFailed, actor: "slow", payload: [:])], at: 1, in: transaction)
                holding.open()
                await release.wait()
            }
            await holding.wait()
            try await store.appendEvents([WalletEventDraft(type: .pushFailed, actor: "fast", payload: [:])])
            #expect(try await store.events(after: .start, limit: 10).isEmpty, "the fast event waits for the slow transaction")
            release.open()
            try await slow
            let events = try await Self.all(store, expecting: 2)
            #expect(events.map(\.actor) == ["slow", "fast"], "the slow transaction began first and is read first")
        }
    }
}
