import Foundation
import OrderPackage
import PasswrightTesting
import Signing
import Testing
@testable import WalletHTTP

/// Erasing a customer's data from orders on a running service, on both engines: by a value in
/// `order.json`, the order keeps only what Wallet requires, is pushed through the real worker to the
/// APNs stand-in, and the device fetches a signed order holding nothing of the customer; the erasure
/// is audited with an event, idempotent, refuses later changes, needs its own scope (and a key
/// limited to some templates must name one), and leaves the customer's values nowhere in the
/// database (a stored `Idempotency-Key` answer included). After the grace period its registrations go. The export before and after it shows the
/// order with everything kept about it.
@Suite(.timeLimit(.minutes(4))) struct OrderErasureTests {
    static let orderType = ThrowawayPKI.orderType
    /// Values that appear nowhere else, so finding one anywhere is finding the customer's data.
    static let email = "zelda.quux@erase.example"
    static let familyName = "Quux-Holderova"
    static let street = "Loeschweg 77"
    static let accountURL = "https://shop.example.com/account/QX-ERASE-4711/orders/1"

    static let customerOrder: JSON = [
        "status": "open", "orderNumber": "QX-1001", "orderManagementURL": .string(accountURL),
        "customer": ["emailAddress": .string(email), "givenName": "Zelda", "familyName": .string(familyName)],
        "fulfillments": [[
            "fulfillmentType": "shipping", "fulfillmentIdentifier": "ship-1", "status": "onTheWay",
            "recipient": ["givenName": "Zelda", "familyName": .string(familyName),
                          "address": ["addressLines": [.string(street)], "locality": "Berlin", "postalCode": "10115", "countryCode": "DE"]],
        ]],
    ]

    @Test(arguments: Engine.selected)
    func anErasedCustomerIsFoundNowhereAndTheDeviceGetsTheErasedOrder(engine: Engine) async throws {
        let phone = OrderDevice("erase-phone", orderType: Self.orderType)
        try await withStandIn { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                // Created with an Idempotency-Key: its stored answer holds the customer too.
                let created = try await server.client.send(
                    "POST", "/api/v1/orders", headers: server.admin + [("Idempotency-Key", "create-qx")],
                    body: (["template": "shop", "orderIdentifier": "QX-ORD", "order": Self.customerOrder] as JSON).data)
                try #require(created.status == 201, "\(created)")
                _ = try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "orderIdentifier": "OTHER-ORD", "order": ["status": "open"]])
                let token = try #require(try created.json()["authenticationToken"].string)
                #expect(try await phone.register(server.client, order: "QX-ORD", token: token) == 201)
                let cursor = try #require(try await phone.changedOrders(server.client).json()["lastModified"].string)
                let logged = try await server.client.send("POST", "/orders/v1/log", body: Data(#"["fetch of QX-ORD failed for Zelda"]"#.utf8))
                #expect(logged.status == 200)

                // The export holds the order with the customer, its device, events and audit row, not its token.
                let lookup: JSON = ["field": "customer.emailAddress", "value": .string(Self.email)]
                let export = try await server.api("POST", "/api/v1/orders/exports", json: lookup)
                #expect(export.status == 200, "\(export)")
                let exported = try #require(try export.json()["orders"].array)
                #expect(exported.map { $0["orderIdentifier"].string } == ["QX-ORD"], "only the customer's order")
                #expect(exported.first?["order"]["customer"]["familyName"].string == Self.familyName)
                #expect(exported.first?["order"]["authenticationToken"] == .null && !export.text.contains(token), "the token is a credential, not the customer's data")
                #expect(exported.first?["devices"].array?.map { $0["deviceIdentifier"].string } == [phone.device.identifier])
                #expect(exported.first?["events"].array?.map { $0["type"].string } == ["order.created", "order.installed"])
                #expect(exported.first?["audit"].array?.map { $0["action"].string } == ["order.create"])
                #expect(exported.first?["erasedAt"] == .null)

                // Its own scope: orders:write may not erase; a key limited to a template must name it.
                let writer = try await Self.key(server, scopes: ["orders:write"])
                let refused = try await Self.send(server, "DELETE", "/api/v1/orders/\(Self.orderType)/QX-ORD", key: writer)
                #expect(refused.status == 403 && refused.text.contains("orders:erase"), "\(refused)")
                let limited = try await Self.key(server, scopes: ["orders:erase"], templates: ["loyalty"])
                let unnamed = try await Self.send(server, "POST", "/api/v1/orders/erasures", key: limited, json: lookup)
                #expect(unnamed.status == 403 && unnamed.text.contains("loyalty"), "\(unnamed)")
                let otherTemplate = try await Self.send(server, "DELETE", "/api/v1/orders/\(Self.orderType)/QX-ORD", key: limited)
                #expect(otherTemplate.status == 403 && otherTemplate.text.contains("shop"), "\(otherTemplate)")

                // Erase by the e-mail address: that order only, pushed to its device once.
                let erased = try await server.api("POST", "/api/v1/orders/erasures", json: lookup)
                #expect(erased.status == 200, "\(erased) \(server.logs.text.suffix(1500))")
                let orders = try erased.json()["erased"].array ?? []
                #expect(orders.map { $0["orderIdentifier"].string } == ["QX-ORD"] && orders.first?["alreadyErased"] == false)
                #expect(orders.first?["pushesQueued"] == 1)
                _ = try await standIn.waitForRequests { $0.contains { $0.token == phone.pushToken } }
                try await Task.sleep(for: .milliseconds(300))
                #expect(try standIn.requests().map(\.token) == [phone.pushToken], "exactly one push")

                // The device learns of the change and fetches a signed order holding nothing of the customer.
                let changed = try await phone.changedOrders(server.client, since: cursor)
                #expect(try changed.json()["orderIdentifiers"] == ["QX-ORD"], "\(changed)")
                let fetched = try await phone.fetch(server.client, order: "QX-ORD", token: token)
                try #require(fetched.status == 200, "\(fetched)")
                let roots = [try ThrowawayPKI.shared().root]
                #expect(OrderVerifier.verify(archive: fetched.body, trustedRoots: roots).isValid)
                let order = try ServedOrder(archive: fetched.body).orderJSON
                #expect(order["customer"] == .null && order["fulfillments"] == .null && order["lineItems"] == .null && order["orderNumber"] == .null, "\(order)")
                #expect(order["status"] == "open" && order["orderManagementURL"] == order["merchant"]["url"] && order["authenticationToken"].string == token)
                for value in [Self.email, Self.familyName, Self.street, "QX-ERASE-4711"] {
                    #expect(fetched.body.range(of: Data(value.utf8)) == nil, "'\(value)' is in the erased order")
                }

                // Idempotent, a tombstone that takes no change, audited and announced by names only.
                let again = try await server.api("DELETE", "/api/v1/orders/\(Self.orderType)/QX-ORD")
                let repeated = try again.json()["erased"].array?.first?["alreadyErased"]
                #expect(again.status == 200 && repeated == true, "\(again)")
                #expect(try await server.api("DELETE", "/api/v1/orders/\(Self.orderType)/NO-SUCH").status == 404)
                let patched = try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/QX-ORD", json: ["status": "completed"])
                #expect(patched.status == 409 && patched.text.contains("erased"), "\(patched)")
                #expect(try await server.api("POST", "/api/v1/orders/erasures", json: lookup).json()["erased"] == [])
                #expect(try await server.api("POST", "/api/v1/orders/exports", json: lookup).json()["orders"] == [])
                let tombstone = try await server.api("GET", "/api/v1/orders/\(Self.orderType)/QX-ORD/export").json()["orders"][0]
                #expect(tombstone["erasedAt"].string != nil && tombstone["order"]["customer"] == .null)
                #expect(tombstone["events"].array?.map { $0["type"].string } == ["order.created", "order.installed", "order.erased"])
                let audit = try await server.api("GET", "/api/v1/audit?action=order.erase")
                #expect((try audit.json()["entries"].array ?? []).compactMap { $0["target"].string } == ["order \(Self.orderType)/QX-ORD"], "\(audit)")
                let events = try await EventAPITests.events(server, query: "&type=order.erased", count: 1)
                #expect(events.events.map { $0["data"]["orderIdentifier"].string } == ["QX-ORD"])
                #expect(try await server.api("GET", "/api/v1/orders/\(Self.orderType)/OTHER-ORD").json()["order"]["status"] == "open", "another order is untouched")

                // Nowhere in the database: not the order, its log line, its event or audit row.
                let stored = try await ErasureTests.databaseBytes(server.service.configuration.database)
                for value in [Self.email, Self.familyName, Self.street, "QX-ERASE-4711", "for Zelda"] {
                    #expect(!ErasureTests.holds(stored, value), "'\(value)' is still in the database")
                }
                #expect(stored.range(of: Data("QX-ORD".utf8)) != nil, "the tombstone's identifier is in what was read (the check reads the data)")

                // After the grace period, its registration goes; the other order's would stay.
                let orderService = server.service.services.orders
                #expect(try await orderService.dropErasedRegistrations(now: Date()) == 0, "not before the grace period")
                #expect(try await orderService.dropErasedRegistrations(now: Date().addingTimeInterval(31 * 86_400)) == 1)
                #expect(try await orderService.registrationCount(.init(orderTypeIdentifier: Self.orderType, orderIdentifier: "QX-ORD")) == 0)
            }
        }
    }

    /// A new API key with `scopes` (limited to `templates` when given); its secret.
    static func key(_ server: TestService, scopes: [String], templates: [String]? = nil) async throws -> String {
        var body: JSON = ["name": "erasure-test", "scopes": .array(scopes.map(JSON.string))]
        if let templates { body["templates"] = .array(templates.map(JSON.string)) }
        let created = try await server.api("POST", "/api/v1/keys", json: body)
        try #require(created.status == 201, "\(created)")
        return try #require(try created.json()["secret"].string)
    }

    static func send(_ server: TestService, _ method: String, _ path: String, key: String, json: JSON? = nil) async throws -> RawResponse {
        var headers = [("Authorization", "Bearer \(key)")]
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await server.client.send(method, path, headers: headers, body: json?.data ?? Data())
    }
}
