import Foundation
import PasswrightTesting
import Testing

/// Push refresh in `passwright serve` as operators run it: the built binary as a child process.
@Suite("passwright serve pushes")
struct PushServeTests {
    static let loyalty = PushTypes.loyalty

    @Test("1,000 pushes queued while push is off survive SIGKILL; after a restart with push on every device is pushed and the outbox empties")
    func queuedPushesSurviveKill() async throws {
        try await withScratch { scratch in
            try await withStandIn { standIn in
                let data = scratch.appendingPathComponent("data")
                let secrets = serveSecrets()
                let authToken = "crash-\(UUID().uuidString)"
                let devices = [SimulatedDevice].fresh(1_000)

                let first = try await ServeProcess.start(dataDirectory: data, options: ["--push", "off"], adminToken: secrets.adminToken, linkKey: secrets.linkKey)
                var firstKilled = false
                defer { if !firstKilled { first.child.signal(SIGKILL) } }
                _ = try await first.admin.issue(serial: "CRASH-1", authenticationToken: authToken)
                try await devices.register(first.client, passType: Self.loyalty, serial: "CRASH-1", authenticationToken: authToken)
                #expect(try await first.admin.registeredDevices(Self.loyalty, "CRASH-1") == 1_000)
                #expect(try await first.admin.update(Self.loyalty, "CRASH-1", data: ["points": 1])["pushesQueued"].number == 1_000)
                #expect(try await first.admin.pushStats()["queued"].number == 1_000)
                let killed = try await first.kill()
                firstKilled = true
                #expect(killed.status == 128 + SIGKILL)
                #expect(try standIn.requests().isEmpty, "push was off")

                let second = try await ServeProcess.start(dataDirectory: data, options: standIn.serveArguments, adminToken: secrets.adminToken, linkKey: secrets.linkKey)
                var secondStopped = false
                defer { if !secondStopped { second.child.signal(SIGKILL) } }
                let tokens = Set(devices.map(\.pushToken))
                let started = ContinuousClock.now
                let requests = try await standIn.waitForRequests(timeout: .seconds(180)) { Set($0.map(\.token)).isSuperset(of: tokens) }
                let elapsed = ContinuousClock.now - started
                try await second.admin.outboxEmpties()
                #expect(Set(requests.map(\.token)) == tokens)
                let stats = try await second.admin.pushStats()
                #expect(stats["failuresByReason"] == [:], "\(stats)")
                print("crash safety: \(requests.count) pushes for \(tokens.count) devices after the restart in \(elapsed)")
                let stopped = try await second.stop()
                secondStopped = true
                #expect(stopped.status == 0, "\(stopped)")
            }
        }
    }

    @Test("passwright push stats prints the outbox as JSON; push send queues a push that reaches every registered device")
    func pushCommand() async throws {
        try await withScratch { scratch in
            try await withStandIn { standIn in
                let secrets = serveSecrets()
                let authToken = "cli-\(UUID().uuidString)"
                let devices = [SimulatedDevice].fresh(2)
                let server = try await ServeProcess.start(dataDirectory: scratch.appendingPathComponent("data"), options: standIn.serveArguments,
                                                          adminToken: secrets.adminToken, linkKey: secrets.linkKey)
                defer { server.child.signal(SIGKILL) }
                _ = try await server.admin.issue(serial: "CLI 1", authenticationToken: authToken)
                try await devices.register(server.client, passType: Self.loyalty, serial: "CLI 1", authenticationToken: authToken)

                var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PASSWRIGHT_") }
                environment["PASSWRIGHT_ADMIN_TOKEN"] = secrets.adminToken
                let serverOption = ["--server", "http://127.0.0.1:\(server.port)"]
                func passwright(_ arguments: [String], environment: [String: String]) async throws -> ProcessResult {
                    try await RunningProcess(try ServeCommandTests.binary(), arguments, environment: environment).wait()
                }

                let idle = try await passwright(["push", "stats"] + serverOption, environment: environment)
                #expect(idle.status == 0, "\(idle)")
                let idleStats = try JSON(parsing: idle.stdout)
                #expect(idleStats["queued"].number == 0)
                #expect(idleStats["sent"].number == 0)

                let sent = try await passwright(["push", "send", Self.loyalty, "CLI 1"] + serverOption, environment: environment)
                #expect(sent.status == 0, "\(sent)")
                #expect(try JSON(parsing: sent.stdout)["pushesQueued"].number == 2)
                let tokens = Set(devices.map(\.pushToken))
                let requests = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: tokens) }
                #expect(requests.allSatisfy { $0.headers["apns-topic"] == Self.loyalty })
                try await server.admin.pushesSent(2)

                let after = try await passwright(["push", "stats"] + serverOption, environment: environment)
                #expect(after.status == 0, "\(after)")
                let afterStats = try JSON(parsing: after.stdout)
                #expect(afterStats["queued"].number == 0)
                #expect(afterStats["sent"].number == 2)
                #expect(!after.out.contains(secrets.adminToken) && !after.err.contains(secrets.adminToken))

                // The wrong token, an unknown pass: a failure exit and the server's answer, nothing queued.
                var wrong = environment
                wrong["PASSWRIGHT_ADMIN_TOKEN"] = "not-the-token"
                let refused = try await passwright(["push", "stats"] + serverOption, environment: wrong)
                #expect(refused.status != 0)
                #expect(refused.err.contains("401"), "\(refused)")
                let unknown = try await passwright(["push", "send", Self.loyalty, "NO-SUCH-PASS"] + serverOption, environment: environment)
                #expect(unknown.status != 0)
                #expect(unknown.err.contains("404"), "\(unknown)")
                #expect(try standIn.requests().count == 2)
            }
        }
    }
}
