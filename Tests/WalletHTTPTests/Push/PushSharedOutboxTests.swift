import Foundation
import PasswrightTesting
import Testing

/// Two `passwright serve` instances on one PostgreSQL database share the outbox: every row is
/// pushed by exactly one of them (claims use `FOR UPDATE SKIP LOCKED`), and both do part of the work.
@Suite("Shared push outbox")
struct PushSharedOutboxTests {
    static let loyalty = PushTypes.loyalty
    static let deviceCount = 10_000

    @Test("two instances on one PostgreSQL drain 10,000 pushes: every token pushed exactly once, both instances send some",
          .enabled(if: Engine.selected.contains(.postgres)))
    func twoInstancesShareTheOutbox() async throws {
        try await Engine.withPostgresSchema { database in
            try await withScratch { scratch in
                try await withStandIn { standIn in
                    let secrets = serveSecrets()
                    let authToken = "shared-\(UUID().uuidString)"
                    let devices = [SimulatedDevice].fresh(Self.deviceCount)
                    var servers: [ServeProcess] = []
                    defer { for server in servers { server.child.signal(SIGKILL) } }
                    for name in ["a", "b"] {
                        servers.append(try await ServeProcess.start(
                            dataDirectory: scratch.appendingPathComponent(name), database: database, options: standIn.serveArguments,
                            adminToken: secrets.adminToken, linkKey: secrets.linkKey))
                    }
                    let (a, b) = (servers[0], servers[1])
                    _ = try await a.admin.issue(serial: "SHARED-1", authenticationToken: authToken)
                    // Registrations go through both instances, as behind a load balancer.
                    let half = Self.deviceCount / 2
                    let registering = ContinuousClock.now
                    async let first: Void = Array(devices[..<half]).register(a.client, passType: Self.loyalty, serial: "SHARED-1", authenticationToken: authToken, parallel: 8)
                    async let second: Void = Array(devices[half...]).register(b.client, passType: Self.loyalty, serial: "SHARED-1", authenticationToken: authToken, parallel: 8)
                    _ = try await (first, second)
                    let registered = ContinuousClock.now - registering
                    #expect(try await b.admin.registeredDevices(Self.loyalty, "SHARED-1") == Self.deviceCount)

                    let pushing = ContinuousClock.now
                    #expect(try await a.admin.update(Self.loyalty, "SHARED-1", data: ["points": 1])["pushesQueued"].number == Double(Self.deviceCount))
                    let tokens = Set(devices.map(\.pushToken))
                    _ = try await standIn.waitForRequests(timeout: .seconds(300)) { $0.count >= Self.deviceCount }
                    try await a.admin.outboxEmpties(timeout: .seconds(120))
                    let drained = ContinuousClock.now - pushing
                    // Longer than several worker rounds of both instances: a duplicate would be recorded by now.
                    try await Task.sleep(for: .seconds(1))

                    let requests = try standIn.requests()
                    #expect(requests.count == Self.deviceCount, "every token exactly once: \(requests.count) requests")
                    #expect(Set(requests.map(\.token)) == tokens)
                    let sentByA = try await a.admin.pushStats()["sent"].number ?? 0
                    let sentByB = try await b.admin.pushStats()["sent"].number ?? 0
                    #expect(sentByA + sentByB == Double(Self.deviceCount))
                    #expect(sentByA > 0 && sentByB > 0, "both instances pushed: \(sentByA) and \(sentByB)")
                    let connections = Set(requests.map(\.connection))
                    #expect(connections.count >= 2, "each instance has its own APNs connection")
                    print("shared outbox: registered \(Self.deviceCount) in \(registered); drained in \(drained); instance a sent \(Int(sentByA)), b \(Int(sentByB)) over \(connections.count) connections")
                }
            }
        }
    }
}
