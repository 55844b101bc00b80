import Foundation
import HTTPServer
import WalletCore

/// The frame of every console page and the headers every console response carries.
enum ConsolePage {
    /// No inline script or style anywhere, nothing from another origin, no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The sections, each with what its page needs: the navigation shows a role only what it may open.
    static let sections: [(path: String, title: String, needs: ConsoleNeed)] = [
        ConsoleRoutes.dashboardSection, ("/console/templates", "Templates", .scope(.templatesRead)), ("/console/passes", "Passes", .scope(.passesRead)),
        ("/console/orders", "Orders", .scope(.ordersRead)),
        ("/console/push", "Push", .scope(.passesRead)), ("/console/devices", "Device logs", .scope(.passesRead)),
        ("/console/identities", "Identities", .scope(.templatesRead)), ("/console/webhooks", "Webhooks", .scope(.webhooksManage)),
        ("/console/jobs", "Bulk jobs", .scope(.passesRead)), ("/console/keys", "API keys", .scope(.keysManage)),
        ("/console/audit", "Audit trail", .scope(.auditRead)), ("/console/users", "Users", .owner),
    ]

    /// A signed-in page: navigation (what `role` may open), sign-out form, a notice or error, then `body`.
    static func page(_ title: String, section: String, csrf: String, role: ConsoleRole, notice: String? = nil, error: String? = nil,
                     status: HTTPStatus = .ok, _ body: HTML) -> HTTPResponse {
        let links = sections.filter { $0.needs.allows(role) }.map { item -> HTML in
            item.path == section
                ? "<li><a href=\"\(item.path)\" aria-current=\"page\">\(item.title)</a></li>"
                : "<li><a href=\"\(item.path)\">\(item.title)</a></li>"
        }
        let header: HTML = """
            <header class="bar"><a class="brand" href="/console/templates">Passwright</a>
            <nav aria-label="Console"><ul>\(links)</ul></nav>
            <form id="sign-out" method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="\(csrf)"><button type="submit" class="quiet">Sign out</button></form>
            </header>
            """
        return document(title, status: status, """
            \(header)
            <main id="main">
            <h1>\(title)</h1>
            \(notice.map { HTML("<p class=\"notice\" role=\"status\">\($0)</p>") } ?? .empty)
            \(error.map { HTML("<p class=\"error\" role=\"alert\">\($0)</p>") } ?? .empty)
            \(body)
            </main>
            """)
    }

    /// A whole HTML document with the console's headers.
    /// Pages seen without a session get no script: it is served to signed-in browsers only.
    static func document(_ title: String, status: HTTPStatus = .ok, headers extra: HTTPHeaders = [:], script: Bool = true, _ body: HTML) -> HTTPResponse {
        let scriptTag: HTML = script ? "<script src=\"/console/assets/console.js\" defer></script>" : .empty
        let html: HTML = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Passwright</title>
            <link rel="stylesheet" href="/console/assets/console.css">\(scriptTag)</head>
            <body><a class="skip" href="#main">Skip to content</a>
            \(body)
            </body></html>
            """
        var response = HTTPResponse.bytes(Data(html.markup.utf8), contentType: "text/html; charset=utf-8", status: status)
        secure(&response)
        for field in extra { response.headers[field.name] = field.value }
        return response
    }

    /// 303 to `location`, optionally setting a cookie.
    static func redirect(_ location: String, cookie: String? = nil) -> HTTPResponse {
        var response = HTTPResponse.empty(status: .seeOther, headers: ["Location": location])
        if let cookie { response.headers["Set-Cookie"] = cookie }
        secure(&response)
        return response
    }

    /// The headers every console response has.
    static func secure(_ response: inout HTTPResponse) {
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Frame-Options"] = "DENY"
    }

    /// A date for the page: machine-readable for console.js to show in the browser's locale and zone.
    static func time(_ date: Date?) -> HTML {
        guard let date else { return "—" }
        let iso = date.formatted(.iso8601)
        return "<time datetime=\"\(iso)\">\(iso)</time>"
    }

    /// A number for console.js to format in the browser's locale.
    static func number<N: BinaryInteger>(_ value: N) -> HTML { "<data value=\"\(value)\">\(value)</data>" }

    /// A hidden CSRF field.
    static func csrfField(_ csrf: String) -> HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">" }
}
