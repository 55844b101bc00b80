import Foundation
import PasswrightTesting
import Testing

/// The order write path under concurrent writers: each change is computed from the stored order and
/// written only if no other landed meanwhile (else computed again), so patches of different keys
/// racing on one order all land, each once, with `updatedAt` moving forward every time; an erasure
/// racing patches ends every writer after it: on both engines.
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

    /// Patches racing an erasure: each lands before it (200, then erased with the rest) or is
    /// refused after it (409); none lands after, so the erased order holds no customer data whatever
    /// the interleaving, and there is one `order.erased` event.
    @Test(arguments: Engine.selected)
    func patchesRacingAnErasureNeverLandAfterIt(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            #expect(try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "orderIdentifier": "RACE-2"]).status == 201)
            let path = "/api/v1/orders/\(Self.orderType)/RACE-2"
            let patches: [JSON] = (0..<6).map { ["customer": ["givenName": .string("Racer \($0)")], "orderNumber": .string("R-\($0)")] }
            let statuses = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for patch in patches { group.addTask { ("patch", try await server.api("PATCH", path, json: patch).status) } }
                group.addTask { ("erase", try await server.api("DELETE", path).status) }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == "erase" }.map(\.1) == [200], "\(statuses)")
            let patchStatuses = statuses.filter { $0.0 == "patch" }.map(\.1)
            #expect(patchStatuses.allSatisfy { $0 == 200 || $0 == 409 }, "\(patchStatuses)")
            let order = try await server.api("GET", path).json()["order"]
            #expect(order["customer"] == .null && order["orderNumber"] == .null, "a patch landed after the erasure: \(order)")
            #expect(try await EventAPITests.events(server, query: "&type=order.erased", count: 1).events.count == 1)
            let landed = try await EventAPITests.events(server, query: "&type=order.updated", count: 0).events.count
            #expect(landed == patchStatuses.filter { $0 == 200 }.count, "one event per patch that landed")
        }
    }
}
