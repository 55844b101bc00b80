import Foundation
import PassModel
import Testing
import WalletStore

/// Every APNs answer is kept on its device as its last push (time, status, reason), with the real
/// worker, the real APNs client and the stand-in answering by rule: what the console shows beside
/// each registered device.
@Suite("APNs answers on the device")
struct PushOutcomeTests {
    static let loyalty = PushTypes.loyalty
    static let concert = PushTypes.concert

    @Test("200, 410 Unregistered (device kept: it registered again since) and 400 DeviceTokenNotForTopic show on the device; 400 BadDeviceToken takes the device",
          arguments: Engine.selected)
    func answersShowOnTheDevice(engine: Engine) async throws {
        let good = SimulatedDevice("good"), reRegistered = SimulatedDevice("re-registered"), mixed = SimulatedDevice("mixed"), bad = SimulatedDevice("bad")
        try await withStandIn { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                let admin = server.adminClient
                let authToken = "outcome-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "OUT-1", authenticationToken: authToken)
                _ = try await admin.issue(template: "concert", serial: "OUT-C", authenticationToken: authToken)
                let beforeRegistering = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
                for device in [good, reRegistered, mixed, bad] {
                    #expect(try await device.register(server.client, passType: Self.loyalty, serial: "OUT-1", authenticationToken: authToken) == 201)
                }
                #expect(try await mixed.register(server.client, passType: Self.concert, serial: "OUT-C", authenticationToken: authToken) == 201)
                try standIn.setRules([
                    reRegistered.pushToken: ["reason": "Unregistered", "timestamp": .number(Double(beforeRegistering))],
                    mixed.pushToken: "DeviceTokenNotForTopic",
                    bad.pushToken: "BadDeviceToken",
                ])
                let loyaltyPass = PassKey(passTypeIdentifier: Self.loyalty, serialNumber: "OUT-1")
                let concertPass = PassKey(passTypeIdentifier: Self.concert, serialNumber: "OUT-C")
                let before = try await server.service.store.registeredDevices(for: loyaltyPass)
                #expect(before.count == 4 && before.allSatisfy { $0.lastPushAt == nil && !$0.pushQueued })

                let started = Date()
                #expect(try await admin.update(Self.loyalty, "OUT-1", data: ["points": 1])["pushesQueued"].number == 4)
                _ = try await standIn.waitForRequests { $0.count >= 4 }
                // Each answer is recorded before it is applied and the row completed, so an empty outbox means all four were.
                try await admin.outboxEmpties()

                let devices = Dictionary(uniqueKeysWithValues: try await server.service.store.registeredDevices(for: loyaltyPass).map { ($0.deviceLibraryIdentifier, $0) })
                #expect(Set(devices.keys) == [good.identifier, reRegistered.identifier], "the mixed device lost this type, the bad one is gone")
                let accepted = try #require(devices[good.identifier])
                #expect(accepted.lastPushStatus == 200 && accepted.lastPushReason == nil && !accepted.pushQueued)
                #expect(try #require(accepted.lastPushAt) >= started.addingTimeInterval(-1))
                let kept = try #require(devices[reRegistered.identifier])
                #expect(kept.lastPushStatus == 410 && kept.lastPushReason == "Unregistered" && kept.lastPushAt != nil)

                let other = try await server.service.store.registeredDevices(for: concertPass)
                #expect(other.map(\.deviceLibraryIdentifier) == [mixed.identifier])
                #expect(other.first?.lastPushStatus == 400 && other.first?.lastPushReason == "DeviceTokenNotForTopic")
            }
        }
    }
}
