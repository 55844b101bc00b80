import Foundation
import PasswrightTesting
import Testing
import WalletCore
import WalletHTTP

/// The holder page at a signed link and what hangs under it: the pass in the holder's language,
/// the action for the holder's device, link previews, the states that offer nothing to add, and
/// `GET /api/v1/passes/{type}/{serial}/link`.
@Suite("Holder page")
struct HolderPageTests {
    static let loyalty = "pass.dev.passwright.loyalty"
    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
    static let desktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"

    /// The page at `link` as `agent` asking for `languages`, as text.
    static func page(_ server: TestService, _ link: String, agent: String, languages: String? = nil) async throws -> (status: Int, html: String, response: RawResponse) {
        var headers = [("User-Agent", agent)]
        if let languages { headers.append(("Accept-Language", languages)) }
        let response = try await server.client.send("GET", try TestService.localTarget(of: link), headers: headers)
        return (response.status, String(decoding: response.body, as: UTF8.self), response)
    }

    /// The values of `attribute` on every element of the page that has it, in order.
    static func attributes(_ attribute: String, in html: String) -> [String] {
        html.matches(of: try! Regex("\(attribute)=\"([^\"]*)\"")).compactMap { $0.output[1].substring.map(String.init) }
            .map { $0.replacingOccurrences(of: "&amp;", with: "&") }
    }

    @Test("on an iPhone in German: German words from the template's de.lproj, German numbers, the Add button to the pass, no script, strict CSP")
    func iPhoneInGerman() async throws {
        try await withService { server in
            let link = try #require(try await server.issue(serial: "HP-DE")["downloadURL"].string)
            let (status, html, response) = try await Self.page(server, link, agent: Self.iPhone, languages: "fr-CH;q=0.2, de-DE, en;q=0.5")
            #expect(status == 200)
            #expect(html.contains("<html lang=\"de\" dir=\"ltr\">"))
            #expect(html.contains("Zu Apple Wallet hinzufügen") && html.contains("Bean &amp; Leaf Prämienkarte"), "page words and the pass's de.lproj")
            #expect(html.contains("<dt>Punkte</dt><dd>1.280</dd>"), "the points formatted for de-DE")
            #expect(!html.contains("<script"), "no script")
            #expect(!html.contains("<svg"), "no code to scan on the phone itself")
            #expect(response.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            #expect(response.header("Cache-Control") == "private, no-store")
            let add = try #require(Self.attributes("href", in: html).first { $0.contains("/pass.pkpass?") })
            let pass = try await server.client.send("GET", add)
            #expect(pass.status == 200 && pass.header("Content-Type") == "application/vnd.apple.pkpass")
            #expect(try ServedPass(archive: pass.body).passJSON["serialNumber"].string == "HP-DE")
            // A chat app drawing the link's card (Messages' agent) gets the page but is no view.
            let preview = try await Self.page(server, link, agent: "facebookexternalhit/1.1 Facebot Twitterbot/1.0", languages: "de")
            #expect(preview.status == 200 && preview.html.contains("og:image"))
            // The view and the download are the programme's figures.
            let totals = try await server.api("GET", "/api/v1/analytics?template=loyalty").json()["totals"]
            #expect(totals["pageViews"].number == 1 && totals["downloads"].number == 1, "\(totals)")
        }
    }

    @Test("on a desktop: a QR code that decodes to the page's own URL, and the Mac download; English for a language the page does not speak")
    func desktopCode() async throws {
        try await withService { server in
            let link = try #require(try await server.issue(serial: "HP-DESK")["downloadURL"].string)
            let (status, html, _) = try await Self.page(server, link, agent: Self.desktop, languages: "ja")
            #expect(status == 200)
            #expect(html.contains("<html lang=\"en\"") && html.contains("Scan with your iPhone"))
            #expect(html.contains("<svg") && html.contains("aria-label=\"QR code that opens this page\""))
            #expect(Self.attributes("href", in: html).contains { $0.contains("/pass.pkpass?") }, "the Mac download")
            // The same code as a PNG (what the link API hands out for print) decodes to the page URL.
            let code = try await server.client.send("GET", try TestService.localTarget(of: link).replacingOccurrences(of: "HP-DESK?", with: "HP-DESK/qr.png?"))
            #expect(code.status == 200 && code.header("Content-Type") == "image/png")
            let decoded = try await PictureCheck.barcodes(in: code.body, only: "QRCode")
            #expect(decoded.map(\.text) == [link], "\(decoded)")
        }
    }

    @Test("right to left for Arabic; link previews: og:image is a PNG of the pass named by its update tag")
    func previewsAndDirection() async throws {
        try await withService { server in
            let link = try #require(try await server.issue(serial: "HP-OG")["downloadURL"].string)
            let (_, arabic, _) = try await Self.page(server, link, agent: Self.desktop, languages: "ar")
            #expect(arabic.contains("<html lang=\"ar\" dir=\"rtl\">"))
            let (_, html, _) = try await Self.page(server, link, agent: Self.desktop)
            let image = try #require(Self.attributes("content", in: html).first { $0.contains("/picture.png?") })
            #expect(image.hasPrefix(TestService.publicURL) && image.hasSuffix("&v=1"), "\(image)")
            #expect(html.contains("<meta property=\"og:title\" content=\"Bean &amp; Leaf Coffee: Bean &amp; Leaf rewards card\">"))
            #expect(html.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
            let picture = try await server.client.send("GET", try TestService.localTarget(of: image))
            #expect(picture.status == 200 && picture.header("Content-Type") == "image/png")
            #expect(picture.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let tag = try #require(picture.header("ETag"))
            let again = try await server.client.send("GET", try TestService.localTarget(of: image), headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            // An update gives the pass a new tag: the page names a new picture, so previews fetch it again.
            #expect(try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/HP-OG", json: ["data": ["points": 5]]).status == 200)
            let (_, updated, _) = try await Self.page(server, link, agent: Self.desktop)
            #expect(updated.contains("&amp;v=2\""), "the picture's URL follows the update tag")
        }
    }

    @Test("a voided pass says so and offers no download; its pass.pkpass is 410")
    func voided() async throws {
        try await withService { server in
            let link = try #require(try await server.issue(serial: "HP-VOID")["downloadURL"].string)
            #expect(try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/HP-VOID", json: ["voided": true]).status == 200)
            for agent in [Self.iPhone, Self.desktop] {
                let (status, html, _) = try await Self.page(server, link, agent: agent)
                #expect(status == 200 && html.contains("This pass is no longer valid"))
                #expect(!html.contains("pass.pkpass") && !html.contains("<svg"), "nothing to add")
            }
            let download = try await server.client.send("GET", try TestService.passTarget(of: link))
            #expect(download.status == 410)
        }
    }

    @Test("an expired link is 410 and says how to get a new one, in the template's words when it has them")
    func expiredLink() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "HP-OLD")
            let links = DownloadLinks(key: server.linkKey, lifetime: .seconds(60))
            let old = links.path(passTypeIdentifier: Self.loyalty, serialNumber: "HP-OLD", now: Date().addingTimeInterval(-3600))
            let (status, html, _) = try await Self.page(server, TestService.publicURL + old, agent: Self.iPhone)
            #expect(status == 410)
            #expect(html.contains("This link has expired.") && html.contains("Ask Bean &amp; Leaf Coffee for a new link."))
            #expect(!html.contains("pass.pkpass"))
            let (forgedStatus, forged, _) = try await Self.page(server, TestService.publicURL + old.replacingOccurrences(of: "signature=", with: "signature=0"), agent: Self.iPhone)
            #expect(forgedStatus == 403 && forged.contains("This link is not valid."))
        }
    }

    @Test("the link API: a page URL, the pass, a picture, QR codes and an e-mail snippet under one signature")
    func linkAPI() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "HP-LINK")
            let response = try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/HP-LINK/link")
            #expect(response.status == 200)
            let link = try response.json()
            let url = try #require(link["url"].string)
            let query = try #require(url.split(separator: "?").last.map(String.init))
            for (name, part) in [("passURL", "/pass.pkpass?"), ("pictureURL", "/picture.png?"), ("qrCodePNG", "/qr.png?"), ("qrCodeSVG", "/qr.svg?")] {
                let value = try #require(link[name].string, "\(name)")
                #expect(value.contains(part) && value.contains(query), "\(name) is under the same signature: \(value)")
                #expect(try await server.client.send("GET", try TestService.localTarget(of: value)).status == 200, "\(name)")
            }
            let svg = try await server.client.send("GET", try TestService.localTarget(of: try #require(link["qrCodeSVG"].string)))
            #expect(svg.header("Content-Type") == "image/svg+xml" && String(decoding: svg.body, as: UTF8.self).hasPrefix("<svg"))
            let html = try #require(link["html"].string)
            #expect(html.contains("<img src=\"\(try #require(link["pictureURL"].string).replacingOccurrences(of: "&", with: "&amp;"))\""))
            #expect(link["expiresAt"].string != nil)
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/NOPE/link").status == 404)
        }
    }

    @Test("an operator's badge folder: the page shows the badge for its language, served from the holder assets")
    func badges() async throws {
        try await withScratch { folder in
            let badge = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 3\"><rect width=\"10\" height=\"3\"/></svg>".utf8)
            try badge.write(to: folder.appendingPathComponent("de.svg"))
            try await withService(walletBadges: folder) { server in
                let link = try #require(try await server.issue(serial: "HP-BADGE")["downloadURL"].string)
                let (_, german, _) = try await Self.page(server, link, agent: Self.iPhone, languages: "de")
                #expect(german.contains("<img src=\"/holder/badge-de.svg\" alt=\"Zu Apple Wallet hinzufügen\">"))
                let served = try await server.client.send("GET", "/holder/badge-de.svg")
                #expect(served.status == 200 && served.body == badge && served.header("Content-Type") == "image/svg+xml")
                let (_, english, _) = try await Self.page(server, link, agent: Self.iPhone, languages: "en")
                #expect(english.contains("<a class=\"add\"") && !english.contains("badge-"), "no English badge: the plain button")
            }
        }
    }
}
