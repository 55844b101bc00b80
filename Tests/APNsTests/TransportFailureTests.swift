import APNs
import Foundation
import Testing

@Suite("Failures without an APNs answer")
struct TransportFailureTests {
    @Test("A server that wants another CA's client certificate fails the push with a TLS or connection error")
    func clientCertificateFromAnotherCA() async throws {
        try await withStandIn(StandInOptions(requireOtherCA: true)) { harness in
            let client = try harness.client()
            let error = await #expect(throws: APNsError.self) {
                try await client.send(pushToken: deviceToken(1), topic: TestPKI.passTypeIdentifier)
            }
            switch error {
            case .tlsFailed?, .connectionLost?: break
            default: Issue.record("expected a TLS or connection error, got \(String(describing: error))")
            }
            #expect(try harness.standIn.records().isEmpty)
        }
    }

    @Test("A closed port fails with a connect error naming the server, not a timeout")
    func unreachablePort() async throws {
        try await withStandIn { harness in
            harness.standIn.stop()
            let client = try harness.client(requestTimeout: .seconds(60))
            let error = await #expect(throws: APNsError.self) {
                try await client.send(pushToken: deviceToken(1), topic: TestPKI.passTypeIdentifier)
            }
            guard case .connectFailed(let server, let detail)? = error else {
                Issue.record("expected .connectFailed, got \(String(describing: error))")
                return
            }
            #expect(server == harness.standIn.url.absoluteString)
            #expect(!detail.isEmpty)
            #expect(error?.description.contains("127.0.0.1:\(harness.standIn.port)") == true)
        }
    }

    @Test("A server slower than requestTimeout gives .timedOut")
    func slowServerTimesOut() async throws {
        try await withStandIn(StandInOptions(delayMilliseconds: 5_000)) { harness in
            let client = try harness.client(requestTimeout: .milliseconds(300))
            let error = await #expect(throws: APNsError.self) {
                try await client.send(pushToken: deviceToken(1), topic: TestPKI.passTypeIdentifier)
            }
            guard case .timedOut(_, let after, _)? = error else {
                Issue.record("expected .timedOut, got \(String(describing: error))")
                return
            }
            #expect(after == .milliseconds(300))
        }
    }

    @Test("After shutdown, send throws .shutDown")
    func sendAfterShutdown() async throws {
        try await withStandIn { harness in
            let client = try harness.client()
            #expect(try await client.send(pushToken: deviceToken(1), topic: TestPKI.passTypeIdentifier).outcome == .delivered)
            await client.shutdown()
            await #expect(throws: APNsError.shutDown) {
                try await client.send(pushToken: deviceToken(2), topic: TestPKI.passTypeIdentifier)
            }
            #expect(try harness.standIn.records().count == 1)
        }
    }

    @Test("Tokens and topics that could bend the request are refused before sending",
          arguments: [("../../x", "pushToken"), ("", "pushToken"), ("abc def", "pushToken")])
    func invalidPushToken(token: String, field: String) async throws {
        try await withStandIn { harness in
            let client = try harness.client()
            await #expect(throws: APNsError.self) {
                try await client.send(pushToken: token, topic: TestPKI.passTypeIdentifier)
            }
            await #expect(throws: APNsError.invalidRequest(field: "topic", reason: "must be the pass type identifier (printable ASCII, no spaces), got 'a\r\nx: y'")) {
                try await client.send(pushToken: deviceToken(1), topic: "a\r\nx: y")
            }
            #expect(try harness.standIn.records().isEmpty)
        }
    }
}
