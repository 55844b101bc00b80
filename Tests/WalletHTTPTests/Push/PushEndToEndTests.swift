import Foundation
import Testing

/// Push refresh as Apple's devices see it: an update through the REST API reaches the APNs
/// stand-in as exactly one well-formed push per registered device, and each device then finds and
/// fetches the new pass (Apple's "Adding a Web Service to Update Passes").
@Suite("Push refresh end to end")
struct PushEndToEndTests {
    static let loyalty = PushTypes.loyalty

    @Test("a PATCH pushes once to each registered device with the APNs headers for passes; each device then lists and fetches the new pass", arguments: Engine.selected)
    func updatePushesEachDeviceOnce(engine: Engine) async throws {
        try await withStandIn { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                let admin = server.adminClient
                let authToken = "push-e2e-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "PUSH-1", authenticationToken: authToken)
                let devices = [SimulatedDevice("phone"), SimulatedDevice("watch")]
                var tags: [String] = []
                for device in devices {
                    #expect(try await device.register(server.client, passType: Self.loyalty, serial: "PUSH-1", authenticationToken: authToken) == 201)
                    let listing = try await device.updatedSerials(server.client, passType: Self.loyalty).json()
                    tags.append(try listing["lastUpdated"].string.orThrow("no lastUpdated"))
                }
                #expect(try standIn.requests().isEmpty, "registering pushes nothing")
                let signatures = try await SignedPassCacheTests.counters(server)

                let outcome = try await admin.update(Self.loyalty, "PUSH-1", data: ["points": 9876])
                #expect(outcome["pushesQueued"].number == 2)
                let tokens = Set(devices.map(\.pushToken))
                _ = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: tokens) }
                try await admin.pushesSent(2)
                // Longer than several worker rounds: a duplicate push would be recorded by now.
                try await Task.sleep(for: .milliseconds(600))
                let requests = try standIn.requests()
                #expect(requests.count == 2, "one push per device, no more: \(requests.map(\.token))")
                for device in devices {
                    let received = requests.filter { $0.token == device.pushToken }
                    #expect(received.count == 1)
                    let push = try #require(received.first)
                    #expect(push.method == "POST")
                    #expect(push.path == "/3/device/\(device.pushToken)")
                    #expect(push.headers["apns-topic"] == Self.loyalty)
                    #expect(push.headers["apns-push-type"] == "background")
                    #expect(push.headers["apns-priority"] == "5")
                    #expect(push.body == "{}")
                    #expect(push.clientSubject.contains("UID=\(Self.loyalty)"), "the pass type's own certificate authenticates: \(push.clientSubject)")
                    let expiration = try #require(push.headers["apns-expiration"].flatMap(Double.init))
                    #expect(expiration > push.time, "offline devices can still get it later")
                }
                let stats = try await admin.pushStats()
                #expect(stats["sent"].number == 2)
                #expect(stats["failuresByReason"] == [:])
                // The new pass was signed once, before its devices were woken, for both of them.
                #expect(try await SignedPassCacheTests.counters(server) == SignedPassCacheTests.Counters(hits: signatures.hits, misses: signatures.misses + 1))

                // What a device does on the push: list changed serials since its tag, then fetch the pass.
                for (device, tag) in zip(devices, tags) {
                    let listed = try await device.updatedSerials(server.client, passType: Self.loyalty, since: tag)
                    #expect(listed.status == 200, "\(listed)")
                    #expect(try listed.json()["serialNumbers"] == ["PUSH-1"])
                    let fetched = try await server.client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/PUSH-1", headers: [("Authorization", "ApplePass \(authToken)")])
                    #expect(fetched.status == 200)
                    #expect(try ServedPass(archive: fetched.body).fieldValue("points").number == 9876)
                }
                #expect(try await SignedPassCacheTests.counters(server) == SignedPassCacheTests.Counters(hits: signatures.hits + 2, misses: signatures.misses + 1),
                        "both fetches were answered with the archive signed ahead")
            }
        }
    }

    @Test("two updates made while nothing pushes coalesce: once pushing starts, each device gets one push and the latest pass", arguments: Engine.selected)
    func updatesCoalesce(engine: Engine) async throws {
        try await withStandIn { standIn in
            try await engine.withLocation { database in
                let authToken = "push-coalesce-\(UUID().uuidString)"
                let devices = [SimulatedDevice("phone"), SimulatedDevice("watch")]
                // First the service runs with push off, so both updates are certainly made before any push.
                try await withService(on: database) { server in
                    let admin = server.adminClient
                    _ = try await admin.issue(serial: "COALESCE-1", authenticationToken: authToken)
                    for device in devices {
                        #expect(try await device.register(server.client, passType: Self.loyalty, serial: "COALESCE-1", authenticationToken: authToken) == 201)
                    }
                    _ = try await admin.update(Self.loyalty, "COALESCE-1", data: ["points": 1])
                    _ = try await admin.update(Self.loyalty, "COALESCE-1", data: ["points": 2])
                    #expect(try await admin.pushStats()["queued"].number == 2, "one outbox row per device, not per update")
                }
                try await withService(on: database, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                    let tokens = Set(devices.map(\.pushToken))
                    _ = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: tokens) }
                    try await server.adminClient.outboxEmpties()
                    try await Task.sleep(for: .milliseconds(600))
                    let requests = try standIn.requests()
                    #expect(requests.count == 2, "\(requests.map(\.token))")
                    #expect(Set(requests.map(\.token)) == tokens)
                    let fetched = try await server.client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/COALESCE-1", headers: [("Authorization", "ApplePass \(authToken)")])
                    #expect(try ServedPass(archive: fetched.body).fieldValue("points").number == 2, "the one push brings the latest version")
                }
            }
        }
    }

    @Test("pushes claimed by an instance that died are left alone until its lease lapses, then another instance sends them", arguments: Engine.selected)
    func deadInstanceClaimsAreTakenOver(engine: Engine) async throws {
        let lease = Duration.seconds(10)
        try await withStandIn { standIn in
            try await engine.withLocation { database in
                let authToken = "push-lease-\(UUID().uuidString)"
                let devices = [SimulatedDevice].fresh(3)
                let claimedAt = try await withService(on: database) { server in
                    _ = try await server.adminClient.issue(serial: "LEASE-1", authenticationToken: authToken)
                    try await devices.register(server.client, passType: Self.loyalty, serial: "LEASE-1", authenticationToken: authToken)
                    _ = try await server.adminClient.update(Self.loyalty, "LEASE-1", data: ["points": 5])
                    // What an instance killed in the middle of sending leaves behind: rows claimed under its name.
                    let claimedAt = ContinuousClock.now
                    let claimed = try await server.service.store.claimPushes(instance: "crashed-instance", limit: 10, lease: lease)
                    #expect(claimed.count == 3)
                    return claimedAt
                }
                try await withService(on: database, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                    // Both checks hold only while the lease runs, and a loaded machine (the suite under
                    // a sanitizer on two cores) can take much of it to stop one service and start the next.
                    let inFlight = try await server.adminClient.pushStats()["inFlight"].number
                    if ContinuousClock.now - claimedAt < lease - .seconds(2) {
                        #expect(inFlight == 3, "the claims still hold")
                    }
                    try await Task.sleep(for: .seconds(1))
                    if ContinuousClock.now - claimedAt < lease - .seconds(2) {
                        #expect(try standIn.requests().isEmpty, "the claims still hold")
                    }
                    let tokens = Set(devices.map(\.pushToken))
                    _ = try await standIn.waitForRequests(timeout: lease + .seconds(30)) { Set($0.map(\.token)).isSuperset(of: tokens) }
                    #expect(ContinuousClock.now - claimedAt >= lease, "not before the lease lapsed")
                    try await server.adminClient.outboxEmpties()
                    #expect(try standIn.requests().count == 3)
                }
            }
        }
    }
}
