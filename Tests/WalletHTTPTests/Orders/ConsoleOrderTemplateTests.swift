import Foundation
import PasswrightTesting
import Testing

/// The console's order templates, over real HTTP: the templates page lists them with their versions,
/// and its form uploads a folder as a new version (the API then shows it), refusing a zip without an
/// `order.json` and storing nothing; an order template's page lists its versions with their orders.
@Suite(.timeLimit(.minutes(2))) struct ConsoleOrderTemplateTests {
    @Test func theTemplatesPageListsAndUploadsOrderTemplates() async throws {
        let socks = try Data(contentsOf: Samples.templatesFolder.appendingPathComponent("orders/shop/socks.png"))
        try await withService { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let page = try await browser.get("/console/templates")
            #expect(page.status == 200, "\(page)")
            #expect(page.text.contains("<table id=\"order-templates\">") && page.text.contains("<th scope=\"row\"><a href=\"/console/order-templates/shop\">shop</a></th><td>v1</td>"), "\(page.text)")
            #expect(page.text.contains("form id=\"order-upload\""))
            let csrf = try #require(ConsoleBrowser.csrf(in: page))
            try await OrderTemplateVersionTests.create(server, "ORD-C1")

            let uploaded = try await browser.post(
                "/console/order-templates/upload", multipart: [("csrf", csrf), ("name", "shop")],
                files: [("archive", "shop.zip", try OrderTemplateVersionTests.archive(logo: socks))])
            #expect(uploaded.status == 303, "\(uploaded)")
            let location = try #require(uploaded.header("Location"))
            let after = try await browser.get(location)
            #expect(after.text.contains("Order template shop version 2 is current"), "\(after.text)")
            #expect(after.text.contains("<a href=\"/console/order-templates/shop\">shop</a></th><td>v2</td>"), "\(after.text)")
            #expect(try await server.api("GET", "/api/v1/order-templates").json()["templates"][0]["version"] == 2)

            // The order template's page: each version with the orders it signs (the one made before the upload keeps v1).
            let details = try await browser.get("/console/order-templates/shop")
            #expect(details.status == 200, "\(details)")
            let versions = details.text.replacingOccurrences(of: "\n", with: "")
            #expect(versions.contains("<th scope=\"row\">v2 (current)</th><td><data value=\"0\">0</data></td>"), "\(details.text)")
            #expect(versions.contains("<th scope=\"row\">v1</th><td><data value=\"1\">1</data></td>"), "\(details.text)")
            #expect(details.text.contains("href=\"/console/orders?template=shop\""))
            let unknown = try await browser.get("/console/order-templates/nope")
            #expect(unknown.status == 404 && unknown.text.contains("There is no order template nope"), "\(unknown)")

            let refused = try await browser.post(
                "/console/order-templates/upload", multipart: [("csrf", csrf), ("name", "shop")],
                files: [("archive", "shop.zip", try OrderTemplateVersionTests.archive(leaving: "order.json"))])
            #expect(refused.status == 422 && refused.text.contains("no order.json"), "\(refused)")
            #expect(try await server.api("GET", "/api/v1/order-templates").json()["templates"][0]["version"] == 2, "nothing refused is stored")

            let forged = try await browser.post(
                "/console/order-templates/upload", multipart: [("csrf", (csrf.first == "0" ? "1" : "0") + csrf.dropFirst()), ("name", "shop")],
                files: [("archive", "shop.zip", try OrderTemplateVersionTests.archive())])
            #expect(forged.status == 403, "a form without the session's CSRF token is refused: \(forged)")
        }
    }
}
