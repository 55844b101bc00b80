import Foundation
import PasswrightTesting
import Testing

/// Order events reach an integration like pass events: a receiver subscribed to `order.*` types gets
/// each once, signed (checked with the Standard Webhooks reference library), without the customer's
/// data or the order's token.
@Suite(.timeLimit(.minutes(2))) struct OrderWebhookTests {
    static let orderType = ThrowawayPKI.orderType

    @Test func orderEventsArriveOnceSignedAndWithoutPersonalData() async throws {
        try await withScratch { folder in
            let receiver = try WebhookReceiverProcess(folder: folder)
            defer { receiver.stop() }
            try await withService { server in
                _ = try await WebhookDeliveryTests.subscribe(server, receiver, types: ["order.created", "order.updated"], templates: ["shop"])
                let created = try await server.api("POST", "/api/v1/orders", json: [
                    "template": "shop", "orderIdentifier": "WH-O-1", "order": ["customer": ["emailAddress": "grace@example.test", "givenName": "Grace"]],
                ])
                try #require(created.status == 201, "\(created)")
                let token = try #require(try created.json()["authenticationToken"].string)
                #expect(try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/WH-O-1", json: ["status": "completed"]).status == 200)
                #expect(try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/WH-O-1", json: ["status": "completed"]).status == 200)

                let deliveries = try await receiver.waitForDeliveries { $0.count >= 2 }
                try await Task.sleep(for: .milliseconds(300))  // nothing more comes: the unchanged patch wrote nothing
                let all = try receiver.deliveries()
                #expect(all.map(\.type) == ["order.created", "order.updated"], "\(all.map(\.type))")
                #expect(all.allSatisfy { $0.verified }, "every signature verifies with standardwebhooks")
                #expect(deliveries.allSatisfy { $0.body.contains("\"orderIdentifier\":\"WH-O-1\"") })
                #expect(deliveries.last?.body.contains("\"changes\":[\"status\"]") == true, "\(deliveries.last?.body ?? "")")
                #expect(!deliveries.contains { $0.body.contains("grace@example.test") || $0.body.contains("Grace") || $0.body.contains(token) })
            }
        }
    }
}
