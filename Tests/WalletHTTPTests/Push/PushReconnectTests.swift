import Foundation
import Testing
import WalletCore

/// APNs's "reconnect now" reaches the worker as that, not as "back off": 503 `Shutdown` means the
/// connection is draining and a new one takes the push at once (Apple's APNs documentation), so a
/// worker that backed off would hold every push of a routine APNs restart for its backoff.
@Suite("APNs retry hints")
struct PushReconnectTests {
    @Test("503 Shutdown: the push goes again at once on a new connection; refused so again, it backs off", arguments: Engine.selected)
    func shutdownRetriesAtOnce(engine: Engine) async throws {
        let device = SimulatedDevice("draining")
        // A base backoff far longer than the test waits: a retry that backs off cannot arrive in time.
        let worker = PushWorkerConfiguration(idleDelay: .milliseconds(20), baseBackoff: .seconds(60), maximumBackoff: .seconds(120))
        try await withStandIn(rules: [device.pushToken: "Shutdown"]) { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: worker) { server in
                let admin = server.adminClient
                let authToken = "reconnect-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "SHUTDOWN-1", authenticationToken: authToken)
                #expect(try await device.register(server.client, passType: PushTypes.loyalty, serial: "SHUTDOWN-1", authenticationToken: authToken) == 201)
                _ = try await admin.update(PushTypes.loyalty, "SHUTDOWN-1", data: ["points": 1])

                let refused = try await standIn.waitForRequests(timeout: .seconds(20)) { $0.count >= 2 }
                #expect(refused[1].time - refused[0].time < 10, "the retry after Shutdown came \(refused[1].time - refused[0].time) s later")
                #expect(refused[0].connection != refused[1].connection, "the retry goes on a new connection")
                // The second Shutdown (on the new connection) backs off: nothing more for a while.
                try await Task.sleep(for: .seconds(1))
                #expect(try standIn.requests().count == 2)
                let stats = try await admin.pushStats()
                #expect(stats["queued"].number == 1, "\(stats)")
                #expect(stats["pendingByLastError"]["Shutdown"].number == 1, "\(stats)")
            }
        }
    }
}
