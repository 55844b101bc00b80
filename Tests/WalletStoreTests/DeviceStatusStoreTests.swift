import Foundation
import Storage
import Testing
@testable import WalletStore

/// What operators see of a pass's devices: the last APNs answer, whether a push waits; and the
/// device log newest first, in pages. On SQLite and PostgreSQL.
@Suite struct DeviceStatusStoreTests {
    @Test(arguments: StoreEngine.selected)
    func devicesShowTheirLastAnswerAndWhetherAPushWaits(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let pass = try await store.createPass(Fixture.pass("d1"))
            let other = try await store.createPass(Fixture.pass("d2", type: Fixture.otherPassType))
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa1", pass: pass.key)
            _ = try await store.register(deviceLibraryIdentifier: "device-2", pushToken: "aa2", pass: pass.key)
            _ = try await store.register(deviceLibraryIdentifier: "device-2", pushToken: "aa2", pass: other.key)

            let fresh = try await store.registeredDevices(for: pass.key)
            #expect(fresh.map(\.deviceLibraryIdentifier) == ["device-1", "device-2"])
            #expect(fresh.allSatisfy { $0.lastPushAt == nil && $0.lastPushStatus == nil && $0.lastPushReason == nil && !$0.pushQueued })

            // A push queued for the other pass type does not count for this pass.
            _ = try await store.updatePass(other.key) { _ in PassChange(voided: true) }
            #expect(try await store.registeredDevices(for: pass.key).allSatisfy { !$0.pushQueued })
            #expect(try await store.registeredDevices(for: other.key).map(\.pushQueued) == [true])

            _ = try await store.updatePass(pass.key) { _ in PassChange(voided: true) }
            #expect(try await store.registeredDevices(for: pass.key).allSatisfy(\.pushQueued))

            let answeredAt = clock.now()
            for job in try await store.claimPushes(instance: "a", limit: 10, lease: .seconds(30)) where job.passTypeIdentifier == Fixture.passType {
                let accepted = job.deviceLibraryIdentifier == "device-1"
                #expect(try await store.recordPushOutcome(
                    deviceLibraryIdentifier: job.deviceLibraryIdentifier, at: answeredAt,
                    status: accepted ? 200 : 410, reason: accepted ? nil : "Unregistered"))
                if accepted { try await store.completePush(job) } else { try await store.retryPush(job, after: .seconds(10), error: "Unregistered") }
            }
            let answered = try await store.registeredDevices(for: pass.key)
            #expect(answered[0].lastPushAt == answeredAt && answered[0].lastPushStatus == 200 && answered[0].lastPushReason == nil)
            #expect(answered[0].pushQueued == false, "completed")
            #expect(answered[1].lastPushStatus == 410 && answered[1].lastPushReason == "Unregistered")
            #expect(answered[1].pushQueued, "still waiting for its retry")

            // No answer at all: no status, the reason says why, cut to the bound.
            clock.advance(.seconds(1))
            #expect(try await store.recordPushOutcome(
                deviceLibraryIdentifier: "device-1", at: clock.now(), status: nil, reason: "transport: " + String(repeating: "x", count: 500)))
            let lost = try await store.registeredDevices(for: pass.key)[0]
            #expect(lost.lastPushStatus == nil && lost.lastPushAt == clock.now())
            #expect(lost.lastPushReason?.count == WalletStore.maximumPushReasonLength && lost.lastPushReason?.hasPrefix("transport: ") == true)
            #expect(try await store.recordPushOutcome(deviceLibraryIdentifier: "gone", at: clock.now(), status: 200, reason: nil) == false)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func deviceLogsPageNewestFirst(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await store.appendLogs((1...7).map { "message \($0)" })
            let first = try await store.recentLogs(limit: 3)
            #expect(first.map(\.message) == ["message 7", "message 6", "message 5"])
            let second = try await store.recentLogs(limit: 3, before: first.last?.id)
            #expect(second.map(\.message) == ["message 4", "message 3", "message 2"])
            #expect(try await store.recentLogs(limit: 3, before: second.last?.id).map(\.message) == ["message 1"])
        }
    }
}
