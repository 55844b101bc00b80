import Foundation
import PasswrightTesting
import Testing
@testable import WalletCore

/// Data rights from the console over real HTTP, on both engines: a pass's and an order's page
/// download everything kept about them, an owner erases them by typing the identifier (a wrong one
/// erases nothing, 422), the erased page says so and offers no editor, and a role without the erase
/// scope sees no form and is refused by the server.
@Suite(.timeLimit(.minutes(3))) struct ConsoleDataRightsTests {
    static let passType = "pass.dev.passwright.loyalty"
    static let orderType = ThrowawayPKI.orderType
    static let holder = "Zelda Quux-Holderova"

    @Test(arguments: Engine.selected)
    func anOwnerDownloadsAndErasesAPassByTypingItsSerialNumber(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            #expect(try await server.api("POST", "/api/v1/passes", json: [
                "template": "loyalty", "serialNumber": "CDR-1",
                "data": ["member": ["id": "M-77", "name": .string(Self.holder)], "points": 5, "tier": "Gold"],
            ]).status == 201)
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let path = "/console/passes/\(Self.passType)/CDR-1"

            let page = try await browser.get(path)
            #expect(page.status == 200 && page.text.contains("id=\"erase\"") && page.text.contains("href=\"\(path)/export\""), "\(page)")
            let export = try await browser.get("\(path)/export")
            #expect(export.status == 200 && export.header("Content-Type") == "application/json", "\(export)")
            #expect(export.header("Content-Disposition") == "attachment; filename=\"pass-CDR-1.json\"")
            #expect(export.header("Content-Security-Policy") != nil && export.header("Cache-Control") == "no-store")
            #expect(export.text.contains(Self.holder), "the export holds the holder's data")
            let signedOut = try await server.client.send("GET", "\(path)/export")
            #expect(signedOut.status == 303, "no session, no export: \(signedOut)")

            // A wrong confirmation erases nothing.
            let csrf = try #require(ConsoleBrowser.csrf(in: page))
            let wrong = try await browser.post("\(path)/erase", form: [("csrf", csrf), ("confirm", "CDR-")])
            #expect(wrong.status == 422 && wrong.text.contains("Nothing was erased"), "\(wrong)")
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.passType)/CDR-1").text.contains(Self.holder))

            let erased = try await browser.post("\(path)/erase", form: [("csrf", csrf), ("confirm", "CDR-1")])
            #expect(erased.status == 303 && (erased.header("Location") ?? "").contains("notice=Erased"), "\(erased)")
            let pass = try await server.api("GET", "/api/v1/passes/\(Self.passType)/CDR-1")
            #expect(try pass.json()["voided"].bool == true && !pass.text.contains(Self.holder), "\(pass.text)")
            let after = try await browser.get(path)
            #expect(after.text.contains("id=\"erased\"") && !after.text.contains("id=\"erase\"") && !after.text.contains("id=\"edit\""), "\(after)")
            let audit = try await server.api("GET", "/api/v1/audit?action=pass.erase").json()
            #expect(audit["entries"].array?.first?["source"].string == "console", "the console is named as the author: \(audit)")
            let again = try await browser.post("\(path)/erase", form: [("csrf", csrf), ("confirm", "CDR-1")])
            #expect((again.header("Location") ?? "").contains("erased%20already"), "erasing twice says so: \(again)")
        }
    }

    @Test(arguments: Engine.selected)
    func anOwnerErasesAnOrderAndASupportRoleCannot(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            #expect(try await server.api("POST", "/api/v1/orders", json: [
                "template": "shop", "orderIdentifier": "CDR-ORD",
                "order": ["orderNumber": "7002", "customer": ["givenName": "Zelda", "familyName": "Quux-Holderova"]],
            ]).status == 201)
            let path = "/console/orders/\(Self.orderType)/CDR-ORD"

            // A support user reads the order and downloads it, but sees no erase form and is refused.
            var support = ConsoleBrowser(server)
            support.cookies["passwright_console"] = try await Self.session(of: .support, in: server)
            let seen = try await support.get(path)
            #expect(seen.status == 200 && seen.text.contains("\(path)/export") && !seen.text.contains("id=\"erase\""), "\(seen)")
            let supportCSRF = try #require(ConsoleBrowser.csrf(in: seen))
            let refused = try await support.post("\(path)/erase", form: [("csrf", supportCSRF), ("confirm", "CDR-ORD")])
            #expect(refused.status == 403 && refused.text.contains("orders:erase"), "\(refused)")
            #expect(try await server.api("GET", "/api/v1/orders/\(Self.orderType)/CDR-ORD").text.contains("Quux-Holderova"))

            var owner = ConsoleBrowser(server)
            _ = try await owner.signIn()
            let page = try await owner.get(path)
            let export = try await owner.get("\(path)/export")
            #expect(export.status == 200 && export.text.contains("Quux-Holderova") && export.header("Content-Disposition") == "attachment; filename=\"order-CDR-ORD.json\"")
            let csrf = try #require(ConsoleBrowser.csrf(in: page))
            #expect(try await owner.post("\(path)/erase", form: [("csrf", csrf), ("confirm", "cdr-ord")]).status == 422, "the identifier exactly")
            let erased = try await owner.post("\(path)/erase", form: [("csrf", csrf), ("confirm", "CDR-ORD")])
            #expect(erased.status == 303, "\(erased)")
            let order = try await server.api("GET", "/api/v1/orders/\(Self.orderType)/CDR-ORD")
            #expect(try !order.text.contains("Quux-Holderova") && order.json()["order"]["orderIdentifier"].string == "CDR-ORD", "\(order.text)")
            let after = try await owner.get(path)
            #expect(after.text.contains("id=\"erased\"") && !after.text.contains("id=\"edit\""), "\(after)")
        }
    }

    /// A signed-in session of a new user with `role`, as its cookie value.
    static func session(of role: ConsoleRole, in server: TestService) async throws -> String {
        let users = server.service.services.consoleUsers
        let origin = ConsoleSessions.origin(of: nil, address: "192.0.2.1")
        let invitation = try await users.invite(email: "\(role.rawValue)@example.test", name: role.rawValue, role: role, origin: origin)
        let user = try #require(try await users.accept(token: invitation.token, password: "a long enough password"))
        let cookie = String(repeating: "d", count: 64)
        try await server.service.services.consoleSessions.create(cookie: cookie, user: user, now: Date(), expiresAt: Date().addingTimeInterval(3600))
        return cookie
    }
}
