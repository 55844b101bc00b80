import APNs
import Foundation
import Testing

/// A server may send its complete response before it has read the request body and then reset the
/// stream with RST_STREAM(NO_ERROR) (RFC 9113 §8.1). libcurl reports that as a stream error, but the
/// push was answered: sending it again would push the device twice (issue #14: 11,281 requests for
/// 10,000 pushes).
///
/// The stand-in can answer before the body only once the client knows it may send no body yet (its
/// SETTINGS), so each test opens the connection with a first push and checks the pushes after it.
@Suite("Answers sent before the request body")
struct EarlyAnswerTests {
    @Test("A 200 sent on the request's headers, then RST_STREAM(NO_ERROR), is a delivery, and each push reaches the server once")
    func earlyOKIsDelivered() async throws {
        try await withStandIn(StandInOptions(answerEarly: true)) { harness in
            let client = try harness.client()
            let tokens = (0..<10).map(deviceToken)
            for token in tokens {
                #expect(try await client.send(pushToken: token, topic: TestPKI.passTypeIdentifier).outcome == .delivered)
            }
            let records = try harness.standIn.records()
            #expect(records.map(\.token) == tokens, "each push once")
            #expect(records.dropFirst().allSatisfy { $0.answeredEarly }, "answered before the body: \(records.map(\.answeredEarly))")
            #expect(client.connectionsOpened == 1)
        }
    }

    @Test("An error answer with its body, sent early and followed by RST_STREAM(NO_ERROR), keeps its outcome")
    func earlyErrorKeepsItsOutcome() async throws {
        let first = deviceToken(7), second = deviceToken(8)
        let rules = [first: StandInRule(reason: "BadDeviceToken"), second: StandInRule(reason: "BadDeviceToken")]
        try await withStandIn(StandInOptions(rules: rules, answerEarly: true)) { harness in
            let client = try harness.client()
            for token in [first, second] {
                let response = try await client.send(pushToken: token, topic: TestPKI.passTypeIdentifier)
                #expect(response.status == 400)
                #expect(response.reason == "BadDeviceToken")
                #expect(response.outcome == .badDeviceToken)
            }
            let records = try harness.standIn.records()
            #expect(records.map(\.token) == [first, second])
            #expect(records.last?.answeredEarly == true)
        }
    }

    @Test("Concurrent pushes answered early are deliveries too (libcurl 7.88 loses some of these answers itself)")
    func concurrentEarlyOKs() async throws {
        try await withStandIn(StandInOptions(answerEarly: true)) { harness in
            let client = try harness.client()
            #expect(try await client.send(pushToken: deviceToken(0), topic: TestPKI.passTypeIdentifier).outcome == .delivered)
            // libcurl 7.88 may end a stream whose answer another stream's read has buffered without
            // handing the answer over (its send path sees the stream closed first); no status reaches
            // the callbacks, so the client cannot tell it from a broken stream. Newer libcurl ignores
            // the rest of the body once the response is complete.
            await withKnownIssue("libcurl 7.88 drops early answers of concurrent streams", isIntermittent: true) {
                let outcomes = try await withThrowingTaskGroup(of: APNsOutcome.self) { group in
                    for token in (1...20).map(deviceToken) {
                        group.addTask { try await client.send(pushToken: token, topic: TestPKI.passTypeIdentifier).outcome }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes == Array(repeating: .delivered, count: 20))
            }
        }
    }
}
