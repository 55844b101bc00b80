import Foundation
import PassModel
import Storage
import Testing
@testable import WalletStore

/// Passes, update tags and modification times, on SQLite and PostgreSQL.
@Suite struct PassStoreTests {
    @Test(arguments: StoreEngine.selected)
    func createReadsBackAndRefusesDuplicates(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let new = NewPass(key: Fixture.key("001"), template: "event", data: #"{"name":"Zoë 🎟️ ' ; --"}"#,
                              overrides: #"{"locations":[]}"#, authenticationToken: "secret-token-0123456789abcdef", voided: true)
            let created = try await store.createPass(new)
            #expect(created.key == new.key)
            #expect(created.template == "event")
            #expect(created.data == new.data)
            #expect(created.overrides == new.overrides)
            #expect(created.authenticationToken == new.authenticationToken)
            #expect(created.voided)
            #expect(created.updateTag >= 1)
            #expect(created.updatedAtMilliseconds == clock.nowMilliseconds())
            #expect(created.lastModified == Date(timeIntervalSince1970: 1_700_000_000.25))
            #expect(try await store.pass(new.key) == created)
            #expect(try await store.pass(Fixture.key("missing")) == nil)

            let duplicate = NewPass(key: new.key, template: "other", data: "{}", authenticationToken: "another-token")
            let error = await #expect(throws: WalletStoreError.self) { try await store.createPass(duplicate) }
            guard case .passExists(let key) = error else { Issue.record("expected passExists, got \(String(describing: error))"); return }
            #expect(key == new.key)
            // The first pass is untouched, and no text meant for logs shows a token.
            #expect(try await store.pass(new.key)?.template == "event")
            #expect(!String(describing: error!).contains("token"))
            #expect(!created.description.contains(new.authenticationToken))
            #expect(!String(reflecting: created).contains(new.authenticationToken))
            #expect(!new.description.contains(new.authenticationToken))

            let missing = await #expect(throws: WalletStoreError.self) {
                try await store.updatePass(Fixture.key("missing")) { _ in PassChange(voided: true) }
            }
            #expect(missing?.description.contains("pass.com.example.event/missing") == true)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func tagsStrictlyIncreaseAndSurviveReopening(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withLocation { location in
            let before = try await location.withStore(clock: clock) { store in
                var tags: [Int64] = []
                for serial in ["a", "b", "c"] {
                    tags.append(try await store.createPass(Fixture.pass(serial)).updateTag)
                }
                let updated = try await store.updatePass(Fixture.key("a")) { _ in PassChange(data: #"{"seat":"2B"}"#) }
                tags.append(updated.pass.updateTag)
                #expect(updated.changed)
                #expect(zip(tags, tags.dropFirst()).allSatisfy { $0 < $1 }, "tags \(tags) must strictly increase")
                return tags.last!
            }
            // A new process on the same database continues above every tag handed out before.
            try await location.withStore(clock: clock) { store in
                #expect(try await store.pass(Fixture.key("a"))?.updateTag == before)
                let created = try await store.createPass(Fixture.pass("d"))
                #expect(created.updateTag > before)
                let updated = try await store.updatePass(Fixture.key("b")) { _ in PassChange(voided: true) }
                #expect(updated.pass.updateTag > created.updateTag)
            }
        }
    }

    @Test(arguments: StoreEngine.selected)
    func anUnchangedUpdateAdvancesNothing(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let created = try await store.createPass(Fixture.pass("001"))
            #expect(try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: created.key) == .created)
            clock.advance(.seconds(10))

            let declined = try await store.updatePass(created.key) { _ in nil }
            let equal = try await store.updatePass(created.key) { current in
                PassChange(data: current.data, overrides: current.overrides, voided: current.voided)
            }
            for outcome in [declined, equal] {
                #expect(!outcome.changed)
                #expect(outcome.pushesQueued == 0)
                #expect(outcome.pass == created)
            }
            #expect(try await store.pass(created.key) == created)
            #expect(try await store.outboxStats().queued == 0)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: created.updateTag) == nil)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func theChangeSeesTheCurrentRowAndItsErrorRollsBack(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let created = try await store.createPass(Fixture.pass("001"))
            let merged = try await store.updatePass(created.key) { current in
                PassChange(data: current.data.replacingOccurrences(of: "1A", with: "9Z"), overrides: #"{"relevantDates":[]}"#)
            }
            #expect(merged.pass.data == #"{"seat":"9Z"}"#)
            #expect(merged.pass.overrides == #"{"relevantDates":[]}"#)
            #expect(!merged.pass.voided)
            #expect(try await store.pass(created.key) == merged.pass)

            await #expect(throws: RejectedChange(serialNumber: "001")) {
                try await store.updatePass(created.key) { current in throw RejectedChange(serialNumber: current.key.serialNumber) }
            }
            #expect(try await store.pass(created.key) == merged.pass)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func concurrentMergesOfOnePassLoseNothing(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let key = try await store.createPass(Fixture.pass("counter", data: "0")).key
            // Each change reads the current row and writes it plus one: a read outside the row lock
            // would let two of them start from the same value and lose an increment.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        _ = try await store.updatePass(key) { current in PassChange(data: String(Int(current.data)! + 1)) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.pass(key)?.data == "20")
        }
    }

    @Test(arguments: StoreEngine.selected)
    func everyChangeMovesLastModifiedToALaterSecond(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let created = try await store.createPass(Fixture.pass("001"))
            // Two changes within the same second must not share an HTTP date, or the second is a 304.
            let first = try await store.updatePass(created.key) { _ in PassChange(data: "{\"v\":1}") }.pass
            let second = try await store.updatePass(created.key) { _ in PassChange(data: "{\"v\":2}") }.pass
            let seconds = [created, first, second].map { Int64($0.lastModified.timeIntervalSince1970.rounded(.down)) }
            #expect(seconds == [1_700_000_000, 1_700_000_001, 1_700_000_002])
            // Once the clock is ahead again, the modification time is the clock's.
            clock.advance(.seconds(60))
            let later = try await store.updatePass(created.key) { _ in PassChange(data: "{\"v\":3}") }.pass
            #expect(later.updatedAtMilliseconds == clock.nowMilliseconds())
            #expect(try await store.pass(created.key)?.lastModified == later.lastModified)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func passesArePagedByKeyAndCountedByTemplate(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            for serial in ["05", "01", "04", "02", "03"] {
                _ = try await store.createPass(Fixture.pass(serial))
            }
            _ = try await store.createPass(Fixture.pass("01", type: Fixture.otherPassType))
            _ = try await store.createPass(Fixture.pass("x", template: "coupon"))

            var keys: [PassKey] = []
            var after: PassKey?
            while true {
                let page = try await store.passes(template: "event", after: after, limit: 2)
                keys += page.map(\.key)
                guard page.count == 2 else { break }
                after = page.last?.key
            }
            let expected = [Fixture.key("01", type: Fixture.otherPassType)] + ["01", "02", "03", "04", "05"].map { Fixture.key($0) }
            #expect(keys == expected)
            #expect(try await store.templateCounts() == ["event": 6, "coupon": 1])
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aTemplateUpdateIsOneTransaction(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            var before: [PassKey: StoredPass] = [:]
            for serial in ["1", "2", "3"] {
                let pass = try await store.createPass(Fixture.pass(serial))
                before[pass.key] = pass
            }
            let outsider = try await store.createPass(Fixture.pass("c", template: "coupon"))
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: Fixture.key("1"))
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: Fixture.key("2"))
            _ = try await store.register(deviceLibraryIdentifier: "device-2", pushToken: "bb02", pass: outsider.key)

            // One pass refuses its change: nothing of the batch is written, no push is queued.
            await #expect(throws: RejectedChange(serialNumber: "3")) {
                try await store.updatePasses(template: "event") { pass in
                    if pass.key.serialNumber == "3" { throw RejectedChange(serialNumber: "3") }
                    return PassChange(data: #"{"seat":"moved"}"#)
                }
            }
            for (key, pass) in before {
                #expect(try await store.pass(key) == pass)
            }
            #expect(try await store.outboxStats().queued == 0)

            // Pass 3 already holds the new data, so it is matched but not changed.
            _ = try await store.updatePass(Fixture.key("3")) { _ in PassChange(data: #"{"seat":"moved"}"#) }
            let outcome = try await store.updatePasses(template: "event") { _ in PassChange(data: #"{"seat":"moved"}"#) }
            #expect(outcome == TemplateUpdateOutcome(matched: 3, changed: 2, pushesQueued: 1))
            let one = try #require(try await store.pass(Fixture.key("1")))
            let two = try #require(try await store.pass(Fixture.key("2")))
            #expect(one.data == #"{"seat":"moved"}"# && two.data == #"{"seat":"moved"}"#)
            #expect(one.updateTag == two.updateTag)
            #expect(one.updateTag > (try await store.pass(Fixture.key("3")))!.updateTag)
            #expect(try await store.pass(outsider.key) == outsider)
            // Device 1 has two changed passes of one type: one push.
            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30))
            #expect(jobs.map(\.deviceLibraryIdentifier) == ["device-1"])
            let serials = try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: before[Fixture.key("2")]!.updateTag)
            #expect(serials == UpdatedSerials(serialNumbers: ["1", "2"], lastUpdated: one.updateTag))
        }
    }
}
