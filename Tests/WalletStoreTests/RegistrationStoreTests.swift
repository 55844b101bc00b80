import Foundation
import Storage
import Testing
@testable import WalletStore

/// Devices, registrations and the "serial numbers updated since" query, on SQLite and PostgreSQL.
@Suite struct RegistrationStoreTests {
    @Test(arguments: StoreEngine.selected)
    func registeringTwiceAnswers200AndUpdatesThePushToken(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let pass = try await store.createPass(Fixture.pass("001"))
            #expect(try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: pass.key) == .created)
            clock.advance(.seconds(5))
            #expect(try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa02", pass: pass.key) == .alreadyRegistered)
            #expect(try await store.registrationCount(for: pass.key) == 1)
            let devices = try await store.registeredDevices(for: pass.key)
            #expect(devices == [RegisteredDevice(deviceLibraryIdentifier: "device-1", pushToken: "aa02", registeredAt: Date(timeIntervalSince1970: 1_700_000_000.25))])

            // A pending push follows the device's newest token.
            _ = try await store.updatePass(pass.key) { _ in PassChange(voided: true) }
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa03", pass: pass.key)
            let jobs = try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30))
            #expect(jobs.map(\.pushToken) == ["aa03"])

            let error = await #expect(throws: WalletStoreError.self) {
                try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa03", pass: Fixture.key("missing"))
            }
            guard case .passNotFound(let key) = error else { Issue.record("expected passNotFound, got \(String(describing: error))"); return }
            #expect(key == Fixture.key("missing"))
            #expect(try await store.registrationCount(for: pass.key) == 1)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func serialNumbersFollowTheTagsStrictly(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let a = try await store.createPass(Fixture.pass("A"))
            let b = try await store.createPass(Fixture.pass("B"))
            let c = try await store.createPass(Fixture.pass("C", type: Fixture.otherPassType))
            _ = try await store.createPass(Fixture.pass("D"))
            for key in [b.key, a.key, c.key] {
                _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: key)
            }

            let all = try #require(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: nil))
            #expect(all == UpdatedSerials(serialNumbers: ["A", "B"], lastUpdated: max(a.updateTag, b.updateTag)))
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: all.lastUpdated) == nil)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.otherPassType, updatedSince: nil)?.serialNumbers == ["C"])
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-2", passTypeIdentifier: Fixture.passType, updatedSince: nil) == nil)
            // Strict: asking with the older pass's tag returns only the newer one.
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: a.updateTag)?.serialNumbers == ["B"])

            _ = try await store.updatePass(a.key) { _ in PassChange(data: #"{"seat":"7C"}"#) }
            let changed = try #require(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: all.lastUpdated))
            #expect(changed.serialNumbers == ["A"])
            #expect(changed.lastUpdated > all.lastUpdated)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: changed.lastUpdated) == nil)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func unregisteringRemovesTheRowThenTheDevice(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let one = try await store.createPass(Fixture.pass("1"))
            let two = try await store.createPass(Fixture.pass("2"))
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: one.key)
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: two.key)
            _ = try await store.updatePass(one.key) { _ in PassChange(voided: true) }
            #expect(try await store.outboxStats().queued == 1)

            #expect(try await store.unregister(deviceLibraryIdentifier: "device-1", pass: one.key))
            #expect(try await !store.unregister(deviceLibraryIdentifier: "device-1", pass: one.key))
            #expect(try await store.registrationCount(for: one.key) == 0)
            // The device still has pass 2 of the type, so its pending push stays.
            #expect(try await store.outboxStats().queued == 1)
            #expect(try await store.serialNumbers(deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: nil)?.serialNumbers == ["2"])

            #expect(try await store.unregister(deviceLibraryIdentifier: "device-1", pass: two.key))
            #expect(try await store.outboxStats().queued == 0)
            // The device row went with its last registration: a later registration with a new
            // token starts over, and the old token is nowhere.
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa09", pass: two.key)
            #expect(try await store.registeredDevices(for: two.key).map(\.pushToken) == ["aa09"])
        }
    }
}
