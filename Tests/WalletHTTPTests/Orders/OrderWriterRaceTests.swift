import Foundation
import PasswrightTesting
import Testing

/// The order write path under concurrent writers: each change is computed from the stored order and
/// written only if no other landed meanwhile (else computed again), so patches of different keys
/// racing on one order all land, each once, with `updatedAt` moving forward every time; on both engines.
@Suite(.timeLimit(.minutes(2))) struct OrderWriterRaceTests {
    static let orderType = ThrowawayPKI.orderType

    @Test(arguments: Engine.selected)
    func racingPatchesOfDifferentKeysAllLand(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            #expect(try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "orderIdentifier": "RACE-1"]).status == 201)
            let patches: [JSON] = [
                ["orderNumber": "R-1"], ["customer": ["givenName": "Ada"]], ["customer": ["familyName": "Lovelace"]],
                ["customer": ["emailAddress": "ada@example.test"]], ["customer": ["phoneNumber": "+44 20 7946 0000"]], ["status": "completed"],
            ]
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for patch in patches {
                    group.addTask { try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/RACE-1", json: patch).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: patches.count), "\(statuses)")
            let order = try await server.api("GET", "/api/v1/orders/\(Self.orderType)/RACE-1").json()["order"]
            #expect(order["orderNumber"].string == "R-1" && order["status"].string == "completed")
            #expect(order["customer"]["givenName"].string == "Ada" && order["customer"]["familyName"].string == "Lovelace")
            #expect(order["customer"]["emailAddress"].string == "ada@example.test" && order["customer"]["phoneNumber"].string == "+44 20 7946 0000")

            let updates = try await EventAPITests.events(server, query: "&type=order.updated", count: patches.count).events
            #expect(updates.count == patches.count, "one event per change: \(updates.count)")
            let audit = try await server.api("GET", "/api/v1/audit?action=order.update").json()["entries"].array ?? []
            #expect(audit.count == patches.count)
            #expect(Set(updates.compactMap { $0["data"]["changes"].array?.first?.string }) == ["orderNumber", "customer", "status"])
        }
    }
}
