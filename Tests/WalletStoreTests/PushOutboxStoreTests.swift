import Foundation
import PassModel
import Storage
import Testing
@testable import WalletStore

/// The push outbox: queueing in the update's transaction, coalescing, claims, leases and the answers
/// APNs gives, on SQLite and PostgreSQL.
@Suite struct PushOutboxStoreTests {
    /// A pass with `devices` registered devices, `device-1` … with tokens `aa1` ….
    private func registeredPass(_ store: WalletStore, serial: String = "001", devices: Int) async throws -> PassKey {
        let pass = try await store.createPass(Fixture.pass(serial))
        for index in 1...devices {
            _ = try await store.register(deviceLibraryIdentifier: "device-\(index)", pushToken: "aa\(index)", pass: pass.key)
        }
        return pass.key
    }

    @Test(arguments: StoreEngine.selected)
    func anUpdateQueuesOnePushPerRegisteredDevice(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let key = try await registeredPass(store, devices: 3)
            let outcome = try await store.updatePass(key) { _ in PassChange(voided: true) }
            #expect(outcome.changed && outcome.pushesQueued == 3)

            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30))
            #expect(Set(jobs.map(\.deviceLibraryIdentifier)) == ["device-1", "device-2", "device-3"])
            #expect(Set(jobs.map(\.pushToken)) == ["aa1", "aa2", "aa3"])
            #expect(jobs.allSatisfy { $0.passTypeIdentifier == Fixture.passType && $0.attempts == 0 && $0.claimedBy == "a" })
            #expect(jobs.allSatisfy { $0.claimedUntil == Date(timeIntervalSince1970: 1_700_000_030.25) })
        }
    }

    @Test(arguments: StoreEngine.selected)
    func updatesBeforeAClaimCoalesceToOnePushPerDeviceAndType(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let key = try await registeredPass(store, devices: 2)
            let sibling = try await store.createPass(Fixture.pass("002"))
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa1", pass: sibling.key)

            _ = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":1}") }
            clock.advance(.seconds(3))
            _ = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":2}") }
            _ = try await store.updatePass(sibling.key) { _ in PassChange(data: "{\"v\":2}") }

            let stats = try await store.outboxStats()
            #expect(stats.queued == 2)
            // The coalesced rows keep their first enqueue time.
            #expect(stats.oldestPendingAge == .seconds(3))
            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30))
            #expect(jobs.map(\.deviceLibraryIdentifier).sorted() == ["device-1", "device-2"])
            #expect(try await store.claimPushes(instance: "b", limit: 10, lease: .seconds(30)).isEmpty)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func claimsCompleteRetryAndExpire(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let key = try await registeredPass(store, devices: 1)
            _ = try await store.updatePass(key) { _ in PassChange(voided: true) }

            let first = try #require(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).first)
            #expect(try await store.outboxStats().inFlight == 1)
            #expect(try await store.claimPushes(instance: "b", limit: 10, lease: .seconds(30)).isEmpty)

            // Instance a dies: once its lease lapses, b takes the row over, and a can no longer settle it.
            clock.advance(.seconds(30))
            let taken = try #require(try await store.claimPushes(instance: "b", limit: 10, lease: .seconds(30)).first)
            #expect(taken.id == first.id && taken.claimedBy == "b")
            #expect(try await !store.completePush(first))
            #expect(try await !store.retryPush(first, after: .seconds(1), error: "Stale"))
            #expect(try await store.outboxStats().queued == 1)

            #expect(try await store.retryPush(taken, after: .seconds(60), error: "TooManyRequests"))
            let stats = try await store.outboxStats()
            #expect(stats.queued == 1 && stats.inFlight == 0)
            #expect(stats.failuresByReason == ["TooManyRequests": 1])
            #expect(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).isEmpty)

            clock.advance(.seconds(60))
            let retried = try #require(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).first)
            #expect(retried.attempts == 1)
            #expect(try await store.completePush(retried))
            #expect(try await store.outboxStats() == OutboxStats(queued: 0, inFlight: 0, oldestPendingAge: nil, failuresByReason: [:]))
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aNewChangeMakesABackedOffPushDueAgain(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let key = try await registeredPass(store, devices: 1)
            _ = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":1}") }
            let failed = try #require(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).first)
            #expect(try await store.retryPush(failed, after: .seconds(600), error: "InternalServerError"))
            #expect(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).isEmpty)

            // The waiting row is coalesced: due now, its failure count and reason cleared.
            _ = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":2}") }
            #expect(try await store.outboxStats().failuresByReason.isEmpty)
            let due = try #require(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).first)
            #expect(due.id == failed.id && due.attempts == 0)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func anUpdateDuringAPushLeadsToAnotherPush(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let key = try await registeredPass(store, devices: 1)
            _ = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":1}") }
            let inFlight = try #require(try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).first)

            // The device may already have fetched the serials before this change: it needs another push.
            let outcome = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":2}") }
            #expect(outcome.pushesQueued == 1)
            #expect(try await store.claimPushes(instance: "b", limit: 10, lease: .seconds(30)).isEmpty)
            #expect(try await !store.completePush(inFlight))

            let again = try #require(try await store.claimPushes(instance: "b", limit: 10, lease: .seconds(30)).first)
            #expect(again.id == inFlight.id && again.generation > inFlight.generation && again.attempts == 0)
            #expect(try await store.completePush(again))
            #expect(try await store.outboxStats().queued == 0)
        }
    }

    /// A round's accepted pushes settle together: rows deleted, devices showing the 200, and a row
    /// queued again while in flight released for another push; a row whose claim was lost stays.
    @Test(arguments: StoreEngine.selected)
    func deliveredPushesSettleTogether(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let key = try await registeredPass(store, devices: 4)
            _ = try await store.updatePass(key) { _ in PassChange(data: "{\"v\":1}") }
            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).sorted { $0.deviceLibraryIdentifier < $1.deviceLibraryIdentifier }
            #expect(jobs.count == 4)
            // device-4's row is queued again mid-flight (another pass of its type changed).
            let sibling = try await store.createPass(Fixture.pass("002"))
            _ = try await store.register(deviceLibraryIdentifier: "device-4", pushToken: "aa4", pass: sibling.key)
            _ = try await store.updatePass(sibling.key) { _ in PassChange(data: "{\"v\":2}") }

            clock.advance(.seconds(2))
            let settledAt = clock.now()
            let stale = PushJob(
                id: jobs[2].id, deviceLibraryIdentifier: jobs[2].deviceLibraryIdentifier, passTypeIdentifier: jobs[2].passTypeIdentifier,
                pushToken: jobs[2].pushToken, attempts: 0, generation: jobs[2].generation, claimedBy: "b",
                claimedUntil: jobs[2].claimedUntil, enqueuedAt: jobs[2].enqueuedAt)
            #expect(try await store.completeDeliveredPushes([jobs[0], jobs[1], stale, jobs[3]], at: settledAt) == 2)

            let left = try await store.claimPushes(instance: "c", limit: 10, lease: .seconds(30))
            #expect(left.map(\.deviceLibraryIdentifier) == ["device-4"], "device-3 is still claimed by a; device-4 is due again")
            #expect(left.first.map { $0.generation > jobs[3].generation } == true)
            let devices = try await store.registeredDevices(for: key)
            // APNs did accept every one of them, the stale claim's too: each device shows it.
            #expect(devices.filter { $0.lastPushStatus == 200 && $0.lastPushAt == settledAt }.count == 4)
            #expect(try await store.completeDeliveredPushes([], at: settledAt) == 0)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func concurrentClaimsNeverShareARow(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withLocation { location in
            try await location.withStore(clock: clock) { first in
                let key = try await registeredPass(first, devices: 200)
                #expect(try await first.updatePass(key) { _ in PassChange(voided: true) }.pushesQueued == 200)
                // A second instance: its own connections to the same database.
                try await location.withStore(clock: clock) { second in
                    // Four claimers per instance, each on its own pooled connection, race for the rows.
                    let claims = try await withThrowingTaskGroup(of: [PushJob].self) { group in
                        for claimer in 0..<8 {
                            let store = claimer % 2 == 0 ? first : second
                            group.addTask { try await Self.drain(store, instance: "instance-\(claimer % 2)-\(claimer)") }
                        }
                        return try await group.reduce(into: [[PushJob]]()) { $0.append($1) }
                    }
                    let ids = claims.flatMap { $0.map(\.id) }
                    // 200 claims of 200 distinct rows: disjoint and complete.
                    #expect(ids.count == 200, "every row is claimed exactly once, not \(ids.count) claims")
                    #expect(Set(ids).count == 200)
                    for job in claims.joined() { #expect(try await first.completePush(job)) }
                    #expect(try await first.outboxStats().queued == 0)
                }
            }
        }
    }

    /// Claims small batches until the outbox has nothing left for `instance`.
    private static func drain(_ store: WalletStore, instance: String) async throws -> [PushJob] {
        var jobs: [PushJob] = []
        while true {
            let batch = try await store.claimPushes(instance: instance, limit: 3, lease: .seconds(300))
            if batch.isEmpty { return jobs }
            jobs += batch
            await Task.yield()
        }
    }

    @Test(arguments: StoreEngine.selected)
    func unregisteredTokensDropRegistrationsUnlessTheDeviceCameBack(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let key = try await registeredPass(store, devices: 2)
            let registeredAt = Date(timeIntervalSince1970: 1_700_000_000.25)
            _ = try await store.updatePass(key) { _ in PassChange(voided: true) }

            // APNs says device-1's token died before it registered: keep it.
            #expect(try await store.dropRegistration(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, unlessRegisteredAfter: registeredAt - 1) == 0)
            #expect(try await store.registrationCount(for: key) == 2)

            // Device 2 re-registers (the 200 path) after the token's death date: keep it too.
            clock.advance(.seconds(20))
            #expect(try await store.register(deviceLibraryIdentifier: "device-2", pushToken: "bb2", pass: key) == .alreadyRegistered)
            #expect(try await store.dropRegistration(deviceLibraryIdentifier: "device-2", passTypeIdentifier: Fixture.passType, unlessRegisteredAfter: registeredAt + 10) == 0)
            #expect(try await store.registrationCount(for: key) == 2)

            // The token died after device 1's registration: drop the registration, the device and its push.
            #expect(try await store.dropRegistration(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, unlessRegisteredAfter: registeredAt + 1) == 1)
            #expect(try await store.registeredDevices(for: key).map(\.deviceLibraryIdentifier) == ["device-2"])
            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30))
            #expect(jobs.map(\.deviceLibraryIdentifier) == ["device-2"])
            #expect(jobs.map(\.pushToken) == ["bb2"])

            // BadDeviceToken: the device goes with its registrations and pushes.
            #expect(try await store.dropDevice(deviceLibraryIdentifier: "device-2"))
            #expect(try await !store.dropDevice(deviceLibraryIdentifier: "device-2"))
            #expect(try await store.registrationCount(for: key) == 0)
            #expect(try await store.outboxStats().queued == 0)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-2", passTypeIdentifier: Fixture.passType, updatedSince: nil) == nil)
        }
    }
}

/// What the push worker signs before it wakes a batch's devices: the passes each device will fetch.
@Suite struct PassesToRefreshStoreTests {
    @Test(arguments: StoreEngine.selected)
    func theDevicesPassesChangedSinceTheirPushWasQueuedEachOnce(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            var keys: [String: PassKey] = [:]
            for serial in ["A", "B", "C", "OLD"] { keys[serial] = try await store.createPass(Fixture.pass(serial)).key }
            for (device, serials) in [("device-1", ["A", "B", "OLD"]), ("device-2", ["A"]), ("device-3", ["C"])] {
                for serial in serials { _ = try await store.register(deviceLibraryIdentifier: device, pushToken: "t-\(device)", pass: keys[serial]!) }
            }
            // OLD changed and was pushed earlier: device-1 already has it.
            _ = try await store.updatePass(keys["OLD"]!) { _ in PassChange(data: "{\"v\":1}") }
            for job in try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)) { #expect(try await store.completePush(job)) }
            clock.advance(.seconds(5))

            _ = try await store.updatePass(keys["A"]!) { _ in PassChange(data: "{\"v\":2}") }
            _ = try await store.updatePass(keys["B"]!) { _ in PassChange(data: "{\"v\":2}") }
            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30))
            #expect(Set(jobs.map(\.deviceLibraryIdentifier)) == ["device-1", "device-2"])
            let refreshed = try await store.passesToRefresh(after: jobs)
            #expect(refreshed.map(\.key.serialNumber).sorted() == ["A", "B"], "A once for its two devices; not OLD, not C")
            let current = try await store.passes([keys["A"]!, keys["B"]!])
            #expect(refreshed.allSatisfy { current[$0.key]?.updateTag == $0.updateTag }, "as stored now")
            #expect(try await store.passesToRefresh(after: []).isEmpty)
        }
    }
}

/// A template-wide change queues its pushes grouped by pass, so the push worker signs each pass once
/// for all of its devices, which then fetch it while it is still in the archive cache.
@Suite struct PushOrderStoreTests {
    @Test(arguments: StoreEngine.selected)
    func theDevicesOfOnePassAreClaimedTogether(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            var keys: [String: PassKey] = [:]
            for serial in ["A", "B", "C"] { keys[serial] = try await store.createPass(Fixture.pass(serial)).key }
            // Device names interleave the passes, so device order would alternate between them.
            let holders = [("d1", "C"), ("d2", "A"), ("d3", "B"), ("d4", "C"), ("d5", "A"), ("d6", "B"), ("d7", "A")]
            for (device, serial) in holders { _ = try await store.register(deviceLibraryIdentifier: device, pushToken: "t-\(device)", pass: keys[serial]!) }
            let outcome = try await store.updatePasses(template: Fixture.pass("A").template) { _ in PassChange(data: "{\"v\":9}") }
            #expect(outcome.changed == 3 && outcome.pushesQueued == 7)

            let claimed = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)).map(\.deviceLibraryIdentifier)
            let holding = Dictionary(uniqueKeysWithValues: holders)
            #expect(claimed.map { holding[$0]! } == ["A", "A", "A", "B", "B", "C", "C"], "claimed \(claimed)")
        }
    }
}
