import Foundation
import Testing

/// A push APNs answered before reading its body, then reset with RST_STREAM(NO_ERROR) (RFC 9113
/// §8.1), was answered: the worker counts it sent and never sends it again (issue #14).
@Suite("Pushes answered early")
struct PushEarlyAnswerTests {
    static let loyalty = PushTypes.loyalty

    @Test("a 200 sent before the request body is one push per update, counted as sent", arguments: Engine.selected)
    func earlyAnswerIsSentOnce(engine: Engine) async throws {
        try await withStandIn(answerEarly: true) { standIn in
            // One connection, so the second round goes where the first one opened.
            var settings = standIn.pushSettings
            settings.connectionsPerIdentity = 1
            try await withService(engine: engine, push: settings, pushWorker: quickWorker()) { server in
                let admin = server.adminClient
                let authToken = "push-early-\(UUID().uuidString)"
                _ = try await admin.issue(serial: "EARLY-1", authenticationToken: authToken)
                // One device, so each push is the only stream on the connection: libcurl 7.88 may drop
                // the early answer of one of several concurrent streams itself (see the APNs tests).
                let devices = [SimulatedDevice].fresh(1)
                try await devices.register(server.client, passType: Self.loyalty, serial: "EARLY-1", authenticationToken: authToken)

                // Two rounds: the stand-in can answer before the body only on a connection whose
                // SETTINGS the client has seen, so the first round opens it and the second is early.
                for round in 1...2 {
                    #expect(try await admin.update(Self.loyalty, "EARLY-1", data: ["points": .number(Double(round))])["pushesQueued"].number == 1)
                    let expected = round * devices.count
                    _ = try await standIn.waitForRequests { $0.count >= expected }
                    // Either the outbox empties, or a push is sent again (the worker retries within its
                    // 200 ms base backoff): whichever comes first, the record then shows which.
                    try await eventually("the outbox empties or a push is resent") {
                        try await admin.pushStats()["queued"].number == 0 || standIn.requests().count > expected
                    }
                }
                let requests = try standIn.requests()
                #expect(requests.count == 2 * devices.count, "one push per device and update, no more: \(requests.map(\.token))")
                #expect(requests.dropFirst(devices.count).allSatisfy { $0.answeredEarly }, "the second round was answered before the body")
                let stats = try await admin.pushesSent(2)
                #expect(try standIn.requests().count == 2 * devices.count, "still no push sent again")
                #expect(stats["failuresByReason"] == [:])
            }
        }
    }
}
