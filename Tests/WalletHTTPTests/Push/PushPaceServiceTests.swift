import Foundation
import PasswrightTesting
import Testing
import WalletCore

/// The push pace on a running server: the Wallet web service's answer times reach the push worker,
/// which slows below `--push-rate` when devices' calls are slower than its target.
@Suite("Push pace from devices' calls")
struct PushPaceServiceTests {
    static let loyalty = PushTypes.loyalty
    static let devices = 300

    @Test("a device call slower than the target slows the next pushes; calls under it leave the pace at --push-rate")
    func devicesCallsMoveThePace() async throws {
        // Every call is slower than a nanosecond, none slower than ten seconds. How far the first cut
        // goes (85 % of what was sent since the worker last looked, not below the floor, 100)
        // depends on when it last looked, which this machine's load moves; PushPaceTests pins that
        // arithmetic on a clock of its own. Here: the calls reach the pace. Each round pushes 300
        // devices, so the pushes go faster than the floor (a trickle under it cuts nothing).
        let slowed = try await pace(target: .nanoseconds(1), until: { $0 < 1000 })
        #expect((100..<1000).contains(slowed), "slow calls cut the pace, not below the floor: \(slowed)")
        #expect(try await pace(target: .seconds(10), until: { _ in false }) == 1000)
    }

    /// Pushes to the 300 devices of one pass, one of which lists its serials before each update, up
    /// to six times or until `done(pace)`; answers the worker's pace (`/metrics`) then.
    private func pace(target: Duration, until done: (Int) -> Bool) async throws -> Int {
        try await withStandIn { standIn in
            let worker = PushWorkerConfiguration(idleDelay: .milliseconds(20), baseBackoff: .milliseconds(200), maximumBackoff: .seconds(1), rate: 1000, deviceCallTarget: target)
            return try await withService(push: standIn.pushSettings, pushWorker: worker) { server in
                let admin = server.adminClient
                let authToken = "pace-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "PACE-1", authenticationToken: authToken)
                let device = SimulatedDevice("phone")
                #expect(try await device.register(server.client, passType: Self.loyalty, serial: "PACE-1", authenticationToken: authToken) == 201)
                for index in 1..<Self.devices {
                    #expect(try await SimulatedDevice("phone-\(index)").register(
                        server.client, passType: Self.loyalty, serial: "PACE-1", authenticationToken: authToken) == 201)
                }
                #expect(try await server.metric("passwright_push_pace") == 1000, "before any push the pace is the ceiling")
                #expect(try await server.metrics()["passwright_device_call_p90_seconds"] == 0, "no device has called after a push yet")
                var pace = 1000
                for round in 1...6 {
                    // A call the worker hears of: it ends just before this round's push is paced.
                    #expect(try await device.updatedSerials(server.client, passType: Self.loyalty).status == 200)
                    _ = try await admin.update(Self.loyalty, "PACE-1", data: ["points": .number(Double(round))])
                    try await admin.pushesSent(round * Self.devices)
                    pace = try await server.metric("passwright_push_pace")
                    if done(pace) { break }
                }
                return pace
            }
        }
    }
}
