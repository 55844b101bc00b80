import APNs
import Foundation
import Testing

/// A 64-hex-digit device token, distinct per number.
func deviceToken(_ number: Int) -> String { String(format: "%064x", number) }

@Suite("Push delivery against a real HTTP/2 TLS stand-in")
struct PushDeliveryTests {
    @Test("A push arrives as APNs expects it, with our client certificate", arguments: [false, true])
    func pushArrivesAsAPNsExpects(encryptedKey: Bool) async throws {
        try await withStandIn { harness in
            let client = try harness.client(encryptedKey: encryptedKey)
            let token = deviceToken(1)
            let before = Date()
            let response = try await client.send(pushToken: token, topic: TestPKI.passTypeIdentifier)

            #expect(response.status == 200)
            #expect(response.outcome == .delivered)
            #expect(response.reason == nil)
            let apnsID = try #require(response.apnsID)
            #expect(UUID(uuidString: apnsID) != nil)

            let record = try #require(try harness.standIn.records().first)
            #expect(record.method == "POST")
            #expect(record.path == "/3/device/\(token)")
            #expect(record.headers["apns-topic"] == TestPKI.passTypeIdentifier)
            #expect(record.headers["apns-push-type"] == "background")
            #expect(record.headers["apns-priority"] == "5")
            #expect(record.headers["content-type"] == "application/json")
            #expect(record.body == "{}")
            #expect(record.clientSubject == TestPKI.clientSubject)
            let expiration = try #require(record.headers["apns-expiration"].flatMap(TimeInterval.init))
            // Default expiry is a day ahead: well after now, and not beyond now + 24 h.
            #expect(expiration > before.timeIntervalSince1970 + 23 * 3600)
            #expect(expiration <= Date().timeIntervalSince1970 + 24 * 3600)
        }
    }

    @Test("Every APNs answer maps to its outcome", arguments: [
        (StandInRule(reason: "BadDeviceToken"), 400, APNsOutcome.badDeviceToken),
        (StandInRule(reason: "DeviceTokenNotForTopic"), 400, .deviceTokenNotForTopic),
        (StandInRule(reason: "BadCertificate"), 403, .credentialsRejected(reason: "BadCertificate")),
        (StandInRule(reason: "Unregistered", timestamp: 1_700_000_000_123), 410,
         .unregistered(since: Date(timeIntervalSince1970: 1_700_000_000.123))),
        (StandInRule(reason: "TooManyRequests"), 429, .retry(after: .backOffForToken)),
        (StandInRule(reason: "InternalServerError"), 500, .retry(after: .backOff)),
        (StandInRule(reason: "Shutdown"), 503, .retry(after: .reconnect)),
        (StandInRule(reason: "BadTopic"), 400, .requestRejected(reason: "BadTopic")),
    ])
    func answerMapsToOutcome(rule: StandInRule, status: Int, outcome: APNsOutcome) async throws {
        let token = deviceToken(7)
        try await withStandIn(StandInOptions(rules: [token: rule])) { harness in
            let response = try await harness.client().send(pushToken: token, topic: TestPKI.passTypeIdentifier)
            #expect(response.status == status)
            #expect(response.reason == rule.reason)
            #expect(response.apnsID != nil)
            #expect(response.outcome == outcome)
        }
    }

    @Test("A 410 carries the time APNs learnt the token was gone, to the millisecond")
    func unregisteredTimestamp() async throws {
        let token = deviceToken(9)
        try await withStandIn(StandInOptions(rules: [token: StandInRule(reason: "Unregistered", timestamp: 1_700_000_000_123)])) { harness in
            let response = try await harness.client().send(pushToken: token, topic: TestPKI.passTypeIdentifier)
            let timestamp = try #require(response.timestamp)
            #expect(Int64((timestamp.timeIntervalSince1970 * 1000).rounded()) == 1_700_000_000_123)
        }
    }
}
