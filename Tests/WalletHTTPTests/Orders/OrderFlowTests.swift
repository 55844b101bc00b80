import Foundation
import OrderPackage
import PasswrightTesting
import Signing
import Testing

/// Wallet orders end to end: created over the admin API from the sample template, then a device
/// plays Apple's Orders web service against the running server — fetch (signed, verified by the
/// `openssl cms` CLI), 304, register, list since, a change pushed through the real worker to the APNs
/// stand-in once per device, list and fetch the new order, unregister — on both engines, with wrong
/// authentication refused.
@Suite(.timeLimit(.minutes(3))) struct OrderFlowTests {
    static let orderType = ThrowawayPKI.orderType

    @Test(arguments: Engine.selected)
    func aDevicePlaysTheWholeOrdersWebService(engine: Engine) async throws {
        let phone = OrderDevice("order-phone", orderType: Self.orderType), watch = OrderDevice("order-watch", orderType: Self.orderType)
        try await withStandIn { standIn in
            try await withService(engine: engine, push: standIn.pushSettings, pushWorker: quickWorker()) { server in
                let created = try await server.api("POST", "/api/v1/orders", json: [
                    "template": "shop", "orderIdentifier": "ORD-1", "order": ["orderNumber": "1001", "status": "open"],
                ])
                try #require(created.status == 201, "\(created)")
                let details = try created.json()
                let token = try #require(details["authenticationToken"].string)
                #expect(token.count >= 16)
                #expect(details["webServiceURL"].string == TestService.publicURL + "/orders")
                #expect(details["order"]["orderNumber"].string == "1001" && details["order"]["merchant"]["displayName"].string != nil, "the template's keys stay")
                #expect(created.header("Location") == "/api/v1/orders/\(Self.orderType)/ORD-1")

                // Wrong, missing and other orders' tokens are all the same 401.
                #expect(try await phone.fetch(server.client, order: "ORD-1", token: "wrong-token-0123456789").status == 401)
                #expect(try await server.client.send("GET", "/orders/v1/orders/\(Self.orderType)/ORD-1").status == 401)
                #expect(try await phone.fetch(server.client, order: "ORD-404", token: token).status == 401)
                #expect(try await server.client.send(
                    "GET", "/orders/v1/orders/\(Self.orderType)/ORD-1", headers: [("Authorization", "ApplePass \(token)")]).status == 401)
                #expect(try await phone.register(server.client, order: "ORD-1", token: "wrong-token-0123456789") == 401)

                // The first fetch: a signed package the openssl CLI verifies against the dev root.
                let first = try await phone.fetch(server.client, order: "ORD-1", token: token)
                try #require(first.status == 200, "\(first)")
                #expect(first.header("Content-Type") == "application/vnd.apple.finance.order")
                let lastModified = try #require(first.header("Last-Modified"))
                let pki = try ThrowawayPKI.shared()
                try await withScratch { folder in
                    let file = folder.appendingPathComponent("ORD-1.order")
                    try first.body.write(to: file)
                    let verified = try await OpenSSL.verifyCMSSignature(file, rootCA: pki.rootCA, workspace: folder)
                    #expect(verified.succeeded, "openssl cms -verify: \(verified)")
                }
                let report = OrderVerifier.verify(archive: first.body, trustedRoots: [pki.root])
                #expect(report.isValid, "\(report.checks)")
                let served = try ServedOrder(archive: first.body)
                #expect(served.orderJSON["orderIdentifier"].string == "ORD-1" && served.orderJSON["authenticationToken"].string == token)
                #expect(served.orderJSON["status"].string == "open")
                #expect(try await phone.fetch(server.client, order: "ORD-1", token: token, ifModifiedSince: lastModified).status == 304)

                // Register twice (201, then 200), a second device, then the list and its cursor.
                #expect(try await phone.register(server.client, order: "ORD-1", token: token) == 201)
                #expect(try await phone.register(server.client, order: "ORD-1", token: token) == 200)
                #expect(try await watch.register(server.client, order: "ORD-1", token: token) == 201)
                let listed = try await phone.changedOrders(server.client)
                try #require(listed.status == 200, "\(listed)")
                #expect(try listed.json()["orderIdentifiers"] == ["ORD-1"])
                let cursor = try #require(try listed.json()["lastModified"].string)
                #expect(try await phone.changedOrders(server.client, since: cursor).status == 204)

                // A change: one push per device, with the order type as the topic, then the new order.
                let patched = try await server.client.send(
                    "PATCH", "/api/v1/orders/\(Self.orderType)/ORD-1",
                    headers: [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", "application/merge-patch+json")],
                    body: Data(#"{"status":"completed"}"#.utf8))
                try #require(patched.status == 200, "\(patched)")
                #expect(try patched.json()["pushesQueued"].number == 2 && patched.json()["registeredDevices"].number == 2)
                let pushes = try await standIn.waitForRequests { Set($0.map(\.token)).isSuperset(of: [phone.pushToken, watch.pushToken]) }
                try await Task.sleep(for: .milliseconds(300))
                let all = try standIn.requests()
                #expect(all.count == 2 && Set(all.map(\.token)) == [phone.pushToken, watch.pushToken], "exactly one push per device: \(all.map(\.token))")
                #expect(pushes.allSatisfy { $0.headers["apns-topic"] == Self.orderType })
                let changed = try await phone.changedOrders(server.client, since: cursor)
                try #require(changed.status == 200, "\(changed)")
                #expect(try changed.json()["orderIdentifiers"] == ["ORD-1"])
                #expect(try Int64(#require(changed.json()["lastModified"].string))! > Int64(cursor)!)
                let second = try await phone.fetch(server.client, order: "ORD-1", token: token, ifModifiedSince: lastModified)
                try #require(second.status == 200, "a change is never answered 304: \(second)")
                let updated = try ServedOrder(archive: second.body)
                #expect(updated.orderJSON["status"].string == "completed")
                #expect(updated.orderJSON["updatedAt"].string! > served.orderJSON["updatedAt"].string!, "updatedAt increases")

                // A fulfilment's progress: one more push per device, and the device's next fetch has it.
                var fulfillments = try #require(updated.orderJSON["fulfillments"].array)
                fulfillments[0]["status"] = "delivered"
                let progressed = try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/ORD-1", json: ["fulfillments": .array(fulfillments)])
                try #require(progressed.status == 200, "\(progressed)")
                #expect(try progressed.json()["pushesQueued"].number == 2)
                _ = try await standIn.waitForRequests { $0.count >= 4 }
                try await Task.sleep(for: .milliseconds(300))
                let tokens = try standIn.requests().map(\.token)
                #expect(tokens.filter { $0 == phone.pushToken }.count == 2 && tokens.filter { $0 == watch.pushToken }.count == 2, "one push per device per change: \(tokens)")
                let third = try await phone.fetch(server.client, order: "ORD-1", token: token, ifModifiedSince: second.header("Last-Modified"))
                try #require(third.status == 200, "\(third)")
                #expect(try ServedOrder(archive: third.body).orderJSON["fulfillments"][0]["status"].string == "delivered")

                // A patch that changes nothing writes nothing and pushes nothing.
                let same = try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/ORD-1", json: ["status": "completed"])
                let sameBody = try same.json(), progressedBody = try progressed.json()
                #expect(same.status == 200 && sameBody["pushesQueued"].number == 0 && sameBody["updateTag"] == progressedBody["updateTag"], "\(same)")

                // The events of the integrations API, without device data.
                let events = try await EventAPITests.events(server, query: "&type=order.created,order.updated,order.installed,order.removed", count: 5)
                #expect(events.events.map { $0["type"].string } == ["order.created", "order.installed", "order.installed", "order.updated", "order.updated"], "\(events.events)")
                #expect(events.events.allSatisfy { $0["data"]["orderIdentifier"].string == "ORD-1" && $0["template"].string == "shop" })
                #expect(events.events[3]["data"]["changes"] == ["status"] && events.events[4]["data"]["changes"] == ["fulfillments"])
                #expect(!events.events.map(\.description).joined().contains(phone.device.identifier))

                // Unregistered: the device's list is empty again; the order still answers the other device.
                #expect(try await phone.unregister(server.client, order: "ORD-1", token: token) == 200)
                #expect(try await phone.changedOrders(server.client).status == 204)
                #expect(try await watch.changedOrders(server.client).status == 200)
            }
        }
    }

    @Test func badRequestsGetTheTrueAnswer() async throws {
        try await withService(engine: .sqlite) { server in
            let owned = try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "order": ["authenticationToken": "mine-mine-mine-mine"]])
            #expect(owned.status == 422 && owned.text.contains("authenticationToken is set by the server"), "\(owned)")
            let invalid = try await server.api("POST", "/api/v1/orders", json: [
                "template": "shop", "order": ["status": "shipped-maybe", "orderProvider": ["displayName": 7], "orderManagementURL": "not a url"],
            ])
            #expect(invalid.status == 422, "\(invalid)")
            let paths = try invalid.json()["errors"].array?.compactMap { $0["path"].string } ?? []
            #expect(paths.contains("status") && paths.contains { $0.hasPrefix("orderManagementURL") }, "every problem by path at once: \(paths)")
            let unknown = try await server.api("POST", "/api/v1/orders", json: ["template": "boutique"])
            #expect(unknown.status == 422 && unknown.text.contains("available: shop"), "\(unknown)")
            #expect(try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "orderIdentifier": "DUP"]).status == 201)
            #expect(try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "orderIdentifier": "DUP"]).status == 409)
            #expect(try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/NOPE", json: ["status": "completed"]).status == 404)
            let renamed = try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/DUP", json: ["orderIdentifier": "OTHER"])
            #expect(renamed.status == 422, "\(renamed)")
            let list = try await server.api("GET", "/api/v1/orders").json()
            #expect(list["orders"].array?.map { $0["orderIdentifier"].string } == ["DUP"])
            let archive = try await server.client.send("GET", "/api/v1/orders/\(Self.orderType)/DUP/order", headers: server.admin)
            #expect(archive.status == 200 && archive.header("Content-Type") == "application/vnd.apple.finance.order")
            #expect(try await server.client.send("GET", "/api/v1/orders").status == 401)
            // The picture: a PNG whose ETag answers 304 until the order changes; a bad option is 400 naming it.
            let picture = try await server.client.send("GET", "/api/v1/orders/\(Self.orderType)/DUP/preview?scale=1", headers: server.admin)
            #expect(picture.status == 200 && picture.header("Content-Type") == "image/png" && picture.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let etag = try #require(picture.header("ETag"))
            #expect(try await server.client.send("GET", "/api/v1/orders/\(Self.orderType)/DUP/preview?scale=1", headers: server.admin + [("If-None-Match", etag)]).status == 304)
            #expect(try await server.api("PATCH", "/api/v1/orders/\(Self.orderType)/DUP", json: ["status": "cancelled"]).status == 200)
            let redrawn = try await server.client.send("GET", "/api/v1/orders/\(Self.orderType)/DUP/preview?scale=1", headers: server.admin + [("If-None-Match", etag)])
            #expect(redrawn.status == 200 && redrawn.body != picture.body, "a changed order is drawn again")
            let badScale = try await server.client.send("GET", "/api/v1/orders/\(Self.orderType)/DUP/preview?scale=9", headers: server.admin)
            #expect(badScale.status == 400 && badScale.text.contains("scale"), "\(badScale)")
            #expect(try await server.client.send("GET", "/api/v1/orders/\(Self.orderType)/NOPE/preview", headers: server.admin).status == 404)
            let logged = try await server.client.send("POST", "/orders/v1/log", body: Data(#"["order 1 failed"]"#.utf8))
            #expect(logged.status == 200)
        }
    }

    @Test("without its Order Type ID identity an order template is named in /readyz with the reason, and creating an order is 503 saying what to do")
    func missingIdentityIsSaid() async throws {
        try await withScratch { folder in
            _ = try DevCertificates.create(in: folder, passTypeIdentifier: "pass.dev.passwright.loyalty", teamIdentifier: ThrowawayPKI.team, now: Date())
            try await withService(identities: folder) { server in
                let ready = try await server.client.send("GET", "/readyz").json()
                let reason = try #require(ready["unavailableTemplates"]["orders/shop"].string, "\(ready)")
                #expect(reason.contains(Self.orderType), "\(reason)")
                let refused = try await server.api("POST", "/api/v1/orders", json: ["template": "shop"])
                #expect(refused.status == 503 && refused.text.contains("certs import"), "\(refused)")
            }
        }
    }
}
