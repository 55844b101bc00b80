import Foundation
import PasswrightTesting
import Testing

/// The console's orders pages over real HTTP: the list, one order, and its editor saving through the
/// orders write path (the API then shows the change, its devices were pushed to, a stale form is
/// refused), on both engines.
@Suite(.timeLimit(.minutes(2))) struct ConsoleOrdersTests {
    static let orderType = ThrowawayPKI.orderType

    @Test(arguments: Engine.selected)
    func listShowEditAndAStaleFormIsRefused(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            #expect(try await server.api("POST", "/api/v1/orders", json: ["template": "shop", "orderIdentifier": "CON-1", "order": ["orderNumber": "7001"]]).status == 201)
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()

            let list = try await browser.get("/console/orders")
            #expect(list.status == 200 && list.text.contains("href=\"/console/orders/\(Self.orderType)/CON-1\"") && list.text.contains("7001"), "\(list)")

            let page = try await browser.get("/console/orders/\(Self.orderType)/CON-1")
            #expect(page.status == 200, "\(page)")
            #expect(page.text.contains("Trail running shoes") && page.text.contains("shipment-1"), "items and fulfilments are shown")
            #expect(!page.text.contains("authenticationToken"), "the editor leaves out what the server sets")
            #expect(page.text.contains("preview.png?tag="), "the order is drawn on its page")
            let drawn = try await browser.get("/console/orders/\(Self.orderType)/CON-1/preview.png")
            #expect(drawn.status == 200 && drawn.header("Content-Type") == "image/png", "\(drawn)")
            let file = try await browser.get("/console/orders/\(Self.orderType)/CON-1/order")
            #expect(file.status == 200 && file.header("Content-Type") == "application/vnd.apple.finance.order", "the signed order downloads with the session")
            let csrf = try #require(ConsoleBrowser.csrf(in: page))
            let tag = try #require(page.text.firstMatch(of: /name="tag" value="([0-9]+)"/).map { String($0.output.1) })

            // The order completed and its shipment delivered, by the choices; the JSON stays as shown.
            let saved = try await browser.post("/console/orders/\(Self.orderType)/CON-1", form: [
                ("csrf", csrf), ("tag", tag), ("status", "completed"), ("fulfillment.0", "delivered"), ("order", ""),
            ])
            #expect(saved.status == 303, "\(saved)")
            let order = try await server.api("GET", "/api/v1/orders/\(Self.orderType)/CON-1").json()
            #expect(order["order"]["status"].string == "completed")
            #expect(order["order"]["fulfillments"][0]["status"].string == "delivered")
            #expect(order["order"]["orderNumber"].string == "7001", "what the form did not change stays")

            // The same form again carries the old version: refused with 409, nothing written.
            let stale = try await browser.post("/console/orders/\(Self.orderType)/CON-1", form: [
                ("csrf", csrf), ("tag", tag), ("status", "cancelled"), ("order", ""),
            ])
            #expect(stale.status == 409 && stale.text.contains("changed after this form was opened"), "\(stale)")
            #expect(try await server.api("GET", "/api/v1/orders/\(Self.orderType)/CON-1").json()["order"]["status"].string == "completed")

            // An invalid edit is 422 naming the value; the audit trail names the console as the author.
            let fresh = try await browser.get("/console/orders/\(Self.orderType)/CON-1")
            let freshTag = try #require(fresh.text.firstMatch(of: /name="tag" value="([0-9]+)"/).map { String($0.output.1) })
            let invalid = try await browser.post("/console/orders/\(Self.orderType)/CON-1", form: [
                ("csrf", csrf), ("tag", freshTag), ("order", #"{"status": "lost-in-space"}"#),
            ])
            #expect(invalid.status == 422 && invalid.text.contains("status"), "\(invalid)")
            let audit = try await server.api("GET", "/api/v1/audit?action=order.update").json()
            #expect(audit["entries"].array?.first?["source"].string == "console", "\(audit)")
        }
    }
}
