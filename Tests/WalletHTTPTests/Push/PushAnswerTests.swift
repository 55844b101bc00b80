import Foundation
import PassModel
import Testing
import WalletStore

/// Every APNs answer leaves the store as Apple's APNs documentation (status codes and reasons) says, with the real worker, the real
/// APNs client and the stand-in answering by rule.
@Suite("APNs answers")
struct PushAnswerTests {
    static let loyalty = PushTypes.loyalty
    static let concert = PushTypes.concert

    /// A service pushing to a stand-in with `rules`, and a pass type's auth token for its passes.
    private static func withPushing(
        _ engine: Engine, rules: [String: JSON] = [:], maximumBackoff: Duration = .seconds(1),
        _ body: (APNsStandIn, TestService, String) async throws -> Void
    ) async throws {
        try await withStandIn(rules: rules) { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker(maximumBackoff: maximumBackoff)) { server in
                try await body(standIn, server, "answers-\(UUID().uuidString)")
            }
        }
    }

    @Test("400 BadDeviceToken: the device and all its registrations are gone; later updates skip it", arguments: Engine.selected)
    func badDeviceToken(engine: Engine) async throws {
        let bad = SimulatedDevice("bad"), good = SimulatedDevice("good")
        try await Self.withPushing(engine, rules: [bad.pushToken: "BadDeviceToken"]) { standIn, server, authToken in
            let admin = server.adminClient
            for serial in ["BDT-A", "BDT-B"] { _ = try await admin.issue(serial: serial, authenticationToken: authToken) }
            #expect(try await bad.register(server.client, passType: Self.loyalty, serial: "BDT-A", authenticationToken: authToken) == 201)
            #expect(try await bad.register(server.client, passType: Self.loyalty, serial: "BDT-B", authenticationToken: authToken) == 201)
            #expect(try await good.register(server.client, passType: Self.loyalty, serial: "BDT-A", authenticationToken: authToken) == 201)

            #expect(try await admin.update(Self.loyalty, "BDT-A", data: ["points": 1])["pushesQueued"].number == 2)
            _ = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: [bad.pushToken, good.pushToken]) }
            try await eventually("the bad device is dropped") { try await admin.registeredDevices(Self.loyalty, "BDT-A") == 1 }
            #expect(try await admin.registeredDevices(Self.loyalty, "BDT-B") == 0, "its registration for the other pass went with it")
            let remaining = try await server.service.store.registeredDevices(for: PassKey(passTypeIdentifier: Self.loyalty, serialNumber: "BDT-A"))
            #expect(remaining.map(\.deviceLibraryIdentifier) == [good.identifier])
            #expect(try await bad.updatedSerials(server.client, passType: Self.loyalty).status == 204, "the device has no registration left")
            try await admin.outboxEmpties()
            #expect(try await admin.pushStats()["failuresByReason"]["BadDeviceToken"].number == 1)

            // The next update of either pass reaches only the good device.
            _ = try await admin.update(Self.loyalty, "BDT-A", data: ["points": 2])
            _ = try await admin.update(Self.loyalty, "BDT-B", data: ["points": 2])
            _ = try await standIn.waitForRequests { $0.filter { $0.token == good.pushToken }.count == 2 }
            try await admin.outboxEmpties()
            #expect(try standIn.requests().filter { $0.token == bad.pushToken }.count == 1)
        }
    }

    @Test("400 DeviceTokenNotForTopic: the registrations for that pass type go, the device's other pass types stay", arguments: Engine.selected)
    func deviceTokenNotForTopic(engine: Engine) async throws {
        let device = SimulatedDevice("mixed")
        try await Self.withPushing(engine, rules: [device.pushToken: "DeviceTokenNotForTopic"]) { standIn, server, authToken in
            let admin = server.adminClient
            _ = try await admin.issue(serial: "DTNT-L", authenticationToken: authToken)
            _ = try await admin.issue(template: "concert", serial: "DTNT-C", authenticationToken: authToken)
            #expect(try await device.register(server.client, passType: Self.loyalty, serial: "DTNT-L", authenticationToken: authToken) == 201)
            #expect(try await device.register(server.client, passType: Self.concert, serial: "DTNT-C", authenticationToken: authToken) == 201)

            _ = try await admin.update(Self.loyalty, "DTNT-L", data: ["points": 1])
            let requests = try await standIn.waitForRequests { !$0.isEmpty }
            #expect(requests.first?.headers["apns-topic"] == Self.loyalty)
            try await eventually("the loyalty registration is dropped") { try await admin.registeredDevices(Self.loyalty, "DTNT-L") == 0 }
            try await admin.outboxEmpties()
            #expect(try await admin.registeredDevices(Self.concert, "DTNT-C") == 1)
            let concerts = try await device.updatedSerials(server.client, passType: Self.concert)
            #expect(concerts.status == 200)
            #expect(try concerts.json()["serialNumbers"] == ["DTNT-C"])
            #expect(try await device.updatedSerials(server.client, passType: Self.loyalty).status == 204)
            #expect(try await admin.pushStats()["failuresByReason"]["DeviceTokenNotForTopic"].number == 1)
        }
    }

    @Test("410 Unregistered: a timestamp before the registration keeps it (the device registered again since); one after drops it", arguments: Engine.selected)
    func unregistered(engine: Engine) async throws {
        let reRegistered = SimulatedDevice("re-registered"), gone = SimulatedDevice("gone")
        try await Self.withPushing(engine) { standIn, server, authToken in
            let admin = server.adminClient
            _ = try await admin.issue(serial: "UNREG-1", authenticationToken: authToken)
            let beforeRegistering = Self.milliseconds(Date()) - 60_000
            for device in [reRegistered, gone] {
                #expect(try await device.register(server.client, passType: Self.loyalty, serial: "UNREG-1", authenticationToken: authToken) == 201)
            }
            let afterRegistering = Self.milliseconds(Date()) + 1
            try standIn.setRules([
                reRegistered.pushToken: ["reason": "Unregistered", "timestamp": .number(Double(beforeRegistering))],
                gone.pushToken: ["reason": "Unregistered", "timestamp": .number(Double(afterRegistering))],
            ])

            _ = try await admin.update(Self.loyalty, "UNREG-1", data: ["points": 1])
            _ = try await standIn.waitForRequests { Set($0.map(\.token)) == [reRegistered.pushToken, gone.pushToken] }
            // The registration is handled before the row is completed, so an empty outbox means both answers were applied.
            try await admin.outboxEmpties()
            let remaining = try await server.service.store.registeredDevices(for: PassKey(passTypeIdentifier: Self.loyalty, serialNumber: "UNREG-1"))
            #expect(remaining.map(\.deviceLibraryIdentifier) == [reRegistered.identifier])
            #expect(try await admin.registeredDevices(Self.loyalty, "UNREG-1") == 1)
            #expect(try await admin.pushStats()["failuresByReason"]["Unregistered"].number == 2)
        }
    }

    /// 503 `Shutdown` retries at once first (PushReconnectTests); after that it backs off like these.
    @Test("429 and 500: the push stays queued with the reason and is retried with backoff until APNs takes it",
          arguments: Engine.selected, ["TooManyRequests", "InternalServerError"])
    func retried(engine: Engine, reason: String) async throws {
        let device = SimulatedDevice("busy")
        try await Self.withPushing(engine, rules: [device.pushToken: .string(reason)]) { standIn, server, authToken in
            let admin = server.adminClient
            _ = try await admin.issue(serial: "RETRY-1", authenticationToken: authToken)
            #expect(try await device.register(server.client, passType: Self.loyalty, serial: "RETRY-1", authenticationToken: authToken) == 201)
            _ = try await admin.update(Self.loyalty, "RETRY-1", data: ["points": 1])

            let refused = try await standIn.waitForRequests { $0.count >= 3 }
            // The stand-in records a request before the worker has applied its answer.
            try await eventually("the third refusal is counted") { try await (admin.pushStats()["failuresByReason"][reason].number ?? 0) >= 3 }
            let stats = try await admin.pushStats()
            #expect(stats["queued"].number == 1, "\(stats)")
            #expect(stats["pendingByLastError"][reason].number == 1, "\(stats)")
            #expect((stats["failuresByReason"][reason].number ?? 0) >= 3, "\(stats)")
            #expect(stats["sent"].number == 0)
            // Each retry waits at least half the base backoff (200 ms) after the answer before it.
            for (earlier, later) in zip(refused, refused.dropFirst()) {
                #expect(later.time - earlier.time >= 0.09, "retried after \(later.time - earlier.time) s")
            }

            try standIn.setRules([:])
            try await eventually("the retried push is accepted", timeout: .seconds(30)) { try await admin.pushStats()["sent"].number == 1 }
            let after = try await admin.pushStats()
            #expect(after["queued"].number == 0, "\(after)")
            #expect(after["pendingByLastError"] == [:])
            #expect(try standIn.requests().allSatisfy { $0.token == device.pushToken })
        }
    }

    @Test("403 BadCertificate: the identity stops (readyz degraded, metrics), its push stays queued and nothing more is sent with it; other pass types still push",
          arguments: Engine.selected)
    func credentialsRejected(engine: Engine) async throws {
        let refused = SimulatedDevice("refused"), other = SimulatedDevice("other")
        try await Self.withPushing(engine, rules: [refused.pushToken: "BadCertificate"]) { standIn, server, authToken in
            let admin = server.adminClient
            _ = try await admin.issue(serial: "CERT-L", authenticationToken: authToken)
            _ = try await admin.issue(template: "concert", serial: "CERT-C", authenticationToken: authToken)
            #expect(try await refused.register(server.client, passType: Self.loyalty, serial: "CERT-L", authenticationToken: authToken) == 201)
            #expect(try await other.register(server.client, passType: Self.concert, serial: "CERT-C", authenticationToken: authToken) == 201)
            let ready = try await server.client.send("GET", "/readyz")
            #expect(try ready.json()["status"] == "ready")

            _ = try await admin.update(Self.loyalty, "CERT-L", data: ["points": 1])
            _ = try await standIn.waitForRequests { !$0.isEmpty }
            let readiness = try await eventually("readyz reports the stopped identity") { () -> JSON? in
                let response = try await server.client.send("GET", "/readyz")
                let body = try response.json()
                return body["status"] == "degraded" ? body : nil
            }
            #expect(readiness["stoppedPushIdentities"][Self.loyalty].string?.contains("BadCertificate") == true, "\(readiness)")
            #expect(try await server.client.send("GET", "/readyz").status == 200, "issuing and serving still work: stay in rotation")
            let metrics = try await server.client.send("GET", "/metrics").text
            #expect(metrics.contains("\npasswright_push_identities_stopped 1.0\n"), "\(metrics)")
            let stats = try await admin.pushStats()
            #expect((stats["queued"].number ?? 0) >= 1)
            #expect(stats["stoppedIdentities"][Self.loyalty].string?.contains("BadCertificate") == true, "\(stats)")

            // More work for the stopped identity, and for another one, over several backoff periods.
            _ = try await admin.update(Self.loyalty, "CERT-L", data: ["points": 2])
            #expect(try await admin.send("POST", "/api/v1/passes/\(Self.loyalty)/CERT-L/push").status == 202)
            _ = try await admin.update(Self.concert, "CERT-C", data: ["holder": ["name": "Grace"]])
            _ = try await standIn.waitForRequests { $0.contains { $0.token == other.pushToken } }
            try await Task.sleep(for: .milliseconds(2_500))
            let requests = try standIn.requests()
            #expect(requests.filter { $0.headers["apns-topic"] == Self.loyalty }.count == 1, "nothing more was sent with the refused identity")
            #expect(requests.filter { $0.token == other.pushToken }.first?.headers["apns-topic"] == Self.concert)
            #expect(try await admin.pushStats()["queued"].number == 1, "the refused identity's push is kept for when it is fixed")
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
