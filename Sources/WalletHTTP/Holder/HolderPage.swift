import Foundation
import HTTPServer
import PassPreview
import WalletCore

/// The holder page: the pass drawn as Wallet shows it with its words as text, and the one action
/// that fits the holder's device. Server-rendered, no script, nothing from another origin.
enum HolderPage {
    /// No script at all; styles and pictures from this origin only (the QR code is inline SVG).
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    /// The device the page is opened on: what adding the pass means there.
    enum Device: Equatable {
        /// iPhone, iPad, iPod touch: Safari hands a `.pkpass` to Wallet.
        case iOS
        /// Anything else: scan the code with an iPhone, or download for Wallet on a Mac.
        case other

        /// From the `User-Agent`. iPadOS Safari may call itself a Mac: it then gets the desktop
        /// page, whose download still adds the pass.
        init(userAgent: String?) {
            let agent = userAgent ?? ""
            self = ["iPhone", "iPad", "iPod"].contains { agent.contains($0) } ? .iOS : .other
        }
    }

    /// The links the page makes to its own parts, all under the link's signature.
    struct Links {
        /// The page's absolute URL (the QR code and `og:url`).
        let page: String
        let pass: String
        /// Relative, for the page; `absolutePicture` for link previews, which need a whole URL.
        let picture: String
        let backPicture: String
        let absolutePicture: String
    }

    /// The page of a pass.
    static func page(_ view: HolderPages.View, words: HolderWords, links: Links, device: Device, badge: WalletBadge?) throws -> HTTPResponse {
        let text = view.text
        let title = text.description.isEmpty ? text.organizationName : text.description
        let action: HTML
        switch view.state {
        case .voided:
            action = "<p class=\"state\" role=\"status\">\(words.voided)</p>"
        case .expired:
            let date = view.expirationDate.map { $0.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: view.language ?? words.language))) } ?? ""
            action = "<p class=\"state\" role=\"status\">\(String(format: words.expired, date))</p>"
        case .valid:
            action = device == .iOS ? addButton(words: words, href: links.pass, badge: badge) : try scan(words: words, links: links, badge: badge)
        }
        let meta: HTML = """
            <meta name="description" content="\(words.invitation)">
            <meta name="robots" content="noindex, nofollow">
            <meta property="og:type" content="website">
            <meta property="og:title" content="\(text.organizationName): \(title)">
            <meta property="og:description" content="\(words.invitation)">
            <meta property="og:url" content="\(links.page)">
            <meta property="og:image" content="\(links.absolutePicture)">
            <meta property="og:image:type" content="image/png">
            <meta property="og:image:alt" content="\(words.frontPicture)">
            <meta property="og:locale" content="\(words.language)">
            <meta name="twitter:card" content="summary_large_image">
            <meta name="twitter:title" content="\(text.organizationName): \(title)">
            <meta name="twitter:description" content="\(words.invitation)">
            <meta name="twitter:image" content="\(links.absolutePicture)">
            """
        // The pass's words are in its `.lproj`'s language, which may not be the page's own.
        let passLanguage = view.language.map { String($0.prefix { $0 != "-" && $0 != "_" }).lowercased() }
        let lang: HTML = passLanguage.map { $0 == words.language ? .empty : " lang=\"\($0)\"" } ?? .empty
        let body: HTML = """
            <main id="main">
            <header\(lang)><p class="issuer">\(text.organizationName)</p><h1>\(title)</h1></header>
            <div class="hero"><figure class="pass"><img src="\(links.picture)" alt="\(words.frontPicture)" aria-describedby="front-text"></figure>
            \(action)</div>
            <section id="front-text" aria-labelledby="front-heading"><h2 id="front-heading">\(words.onThePass)</h2>\(fields(text.front, lang: lang))</section>
            <details><summary>\(words.backOfPass)</summary>
            <figure class="pass"><img src="\(links.backPicture)" alt="\(words.backOfPass)" aria-describedby="back-text"></figure>
            <div id="back-text">\(fields(text.back, lang: lang))</div>
            </details>
            </main>
            """
        return document(title: title, words: words, status: .ok, head: meta, body)
    }

    /// A page that explains why there is nothing to add: a bad or expired link, a pass that is gone.
    static func refusal(_ message: String, help: String? = nil, words: HolderWords, status: HTTPStatus) -> HTTPResponse {
        document(title: message, words: words, status: status, head: .empty, """
            <main id="main"><h1>\(message)</h1>\(help.map { HTML("<p>\($0)</p>") } ?? .empty)</main>
            """)
    }

    private static func addButton(words: HolderWords, href: String, badge: WalletBadge?) -> HTML {
        // Apple's badge artwork only as the operator supplied it; otherwise a plain button that does
        // not imitate it.
        if let badge {
            return "<p class=\"action\"><a class=\"badge\" href=\"\(href)\" type=\"application/vnd.apple.pkpass\"><img src=\"\(badge.path)\" alt=\"\(words.addToWallet)\"></a></p>"
        }
        return "<p class=\"action\"><a class=\"add\" href=\"\(href)\" type=\"application/vnd.apple.pkpass\">\(words.addToWallet)</a></p>"
    }

    private static func scan(words: HolderWords, links: Links, badge: WalletBadge?) throws -> HTML {
        let code = try LinkCode.svg(links.page, title: words.codeLabel)
        return """
            <section class="scan" aria-labelledby="scan-heading"><h2 id="scan-heading">\(words.scanTitle)</h2>
            <div class="code">\(HTML(raw: code))</div>
            <p>\(words.scanHelp)</p>
            <p class="action"><a class="secondary" href="\(links.pass)" type="application/vnd.apple.pkpass">\(words.downloadForMac)</a></p>
            </section>
            """
    }

    private static func fields(_ entries: [PassText.Entry], lang: HTML) -> HTML {
        guard !entries.isEmpty else { return .empty }
        let rows = entries.map { entry -> HTML in
            // No wrapping <div>: older screen readers and axe-core's dlitem rule want dt and dd in the dl itself.
            "<dt>\(entry.label)</dt><dd>\(entry.value)</dd>"
        }
        return "<dl\(lang)>\(rows)</dl>"
    }

    private static func document(title: String, words: HolderWords, status: HTTPStatus, head: HTML, _ body: HTML) -> HTTPResponse {
        let html: HTML = """
            <!doctype html>
            <html lang="\(words.language)" dir="\(words.isRightToLeft ? "rtl" : "ltr")"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(title)</title>
            \(head)
            <link rel="stylesheet" href="/holder/holder.css"></head>
            <body>
            \(body)
            </body></html>
            """
        var response = HTTPResponse.bytes(Data(html.markup.utf8), contentType: "text/html; charset=utf-8", status: status)
        secure(&response)
        response.headers["Content-Language"] = words.language
        response.headers["Vary"] = "Accept-Language, User-Agent"
        return response
    }

    /// The headers every holder response carries: the page holds a holder's data, so nothing stores it.
    static func secure(_ response: inout HTTPResponse) {
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "private, no-store"
        response.headers["X-Frame-Options"] = "DENY"
    }
}
