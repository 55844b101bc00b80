import Foundation
import PasswrightTesting
import Testing
import WalletCore
import WalletHTTP

/// The console's sign-in, session cookie, CSRF and headers, over real HTTP on both engines.
@Suite struct ConsoleSecurityTests {
    static let pages = [
        "/console/templates", "/console/templates/loyalty", "/console/passes", "/console/push", "/console/devices", "/console/identities",
        "/console/webhooks", "/console/jobs", "/console/keys", "/console/audit", "/console/dashboard",
    ]

    @Test(arguments: Engine.selected)
    func nothingWithoutASession(engine: Engine) async throws {
        try await withService(engine: engine) { service in
            var browser = ConsoleBrowser(service)
            let script = try await browser.get("/console/assets/console.js")
            #expect(script.status == 403, "the script without a session: \(script.status)")
            for page in Self.pages + ["/console/templates/loyalty/preview.png"] {
                let response = try await browser.get(page)
                #expect(response.status == 303 && response.header("Location") == "/console/sign-in", "\(page) without a session: \(response.status)")
            }
            let post = try await browser.post("/console/sign-out", form: [])
            #expect(post.status == 403)
            let stylesheet = try await browser.get("/console/assets/console.css")
            #expect(stylesheet.status == 200, "the sign-in page's stylesheet is public")
        }
    }

    @Test(arguments: Engine.selected)
    func signInSetsAStrictCookieAndPagesCarryNoToken(engine: Engine) async throws {
        try await withService(engine: engine) { service in
            var browser = ConsoleBrowser(service)
            let wrong = try await browser.signIn(token: "not-the-token")
            #expect(wrong.status == 401 && browser.cookies["passwright_console"] == nil)
            let signedIn = try await browser.signIn()
            #expect(signedIn.status == 303 && signedIn.header("Location") == "/console/templates")
            let cookie = try #require(signedIn.headers.first { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("passwright_console=") }).value
            for flag in ["HttpOnly", "SameSite=Strict", "Path=/console", "Secure", "Max-Age=28800"] {
                #expect(cookie.contains(flag), "cookie \(cookie) lacks \(flag)")
            }
            for page in Self.pages {
                let response = try await browser.get(page)
                #expect(response.status == 200, "\(page): \(response.status)")
                let policy = try #require(response.header("Content-Security-Policy"))
                #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && policy.contains("frame-ancestors 'none'"))
                #expect(response.header("Cache-Control") == "no-store")
                let html = String(decoding: response.body, as: UTF8.self)
                #expect(!html.contains(service.adminToken), "\(page) shows the admin token")
                #expect(!html.contains("<script>") && !html.contains("style="), "\(page) has inline script or style")
            }
        }
    }

    @Test func formsWithoutTheSessionsTokenAreRefused() async throws {
        try await withService { service in
            _ = try await service.issue(serial: "CONSOLE-1")
            var browser = ConsoleBrowser(service)
            _ = try await browser.signIn()
            let page = try await browser.get("/console/passes/pass.dev.passwright.loyalty/CONSOLE-1")
            let csrf = try #require(ConsoleBrowser.csrf(in: page))
            let without = try await browser.post("/console/passes/pass.dev.passwright.loyalty/CONSOLE-1", form: [("data.member.name", "Mallory")])
            let forged = try await browser.post("/console/passes/pass.dev.passwright.loyalty/CONSOLE-1", form: [("csrf", String(repeating: "0", count: 64)), ("data.member.name", "Mallory")])
            #expect(without.status == 403 && forged.status == 403)
            let stored = try await service.api("GET", "/api/v1/passes/pass.dev.passwright.loyalty/CONSOLE-1")
            #expect(!String(decoding: stored.body, as: UTF8.self).contains("Mallory"), "a refused form changed nothing")
            let saved = try await browser.post("/console/passes/pass.dev.passwright.loyalty/CONSOLE-1", form: [("csrf", csrf), ("data.member.name", "Grace Hopper")])
            #expect(saved.status == 303)
            let after = try await service.api("GET", "/api/v1/passes/pass.dev.passwright.loyalty/CONSOLE-1")
            #expect(String(decoding: after.body, as: UTF8.self).contains("Grace Hopper"), "the console saved through the service")
            let history = try await browser.get("/console/passes/pass.dev.passwright.loyalty/CONSOLE-1")
            let html = String(decoding: history.body, as: UTF8.self)
            #expect(html.contains("id=\"history\"") && html.contains("console"), "the change is in the history, by the console")
        }
    }

    @Test func signInAttemptsAreLimited() async throws {
        try await withService { service in
            var browser = ConsoleBrowser(service)
            for _ in 1...5 {
                let wrong = try await browser.signIn(token: "wrong")
                #expect(wrong.status == 401)
            }
            let limited = try await browser.signIn(token: "wrong")
            #expect(limited.status == 429)
            let right = try await browser.signIn()
            #expect(right.status == 429, "even the right token waits out the minute")
        }
    }

    @Test(arguments: Engine.selected)
    func signOutEndsTheSessionEverywhere(engine: Engine) async throws {
        try await engine.withLocation { database in
            var browser: ConsoleBrowser?
            var cookie = ""
            try await withService(on: database) { service in
                var signedIn = ConsoleBrowser(service)
                _ = try await signedIn.signIn()
                cookie = try #require(signedIn.cookies["passwright_console"])
                browser = signedIn
            }
            // A second instance on the same database accepts the session: it lives in the store.
            try await withService(on: database) { service in
                var second = ConsoleBrowser(service)
                second.cookies["passwright_console"] = cookie
                let page = try await second.get("/console/passes")
                #expect(page.status == 200)
                let csrf = try #require(ConsoleBrowser.csrf(in: page))
                let out = try await second.post("/console/sign-out", form: [("csrf", csrf)])
                #expect(out.status == 303 && out.header("Location") == "/console/sign-in")
                var stale = ConsoleBrowser(service)
                stale.cookies["passwright_console"] = cookie
                let refused = try await stale.get("/console/passes")
                #expect(refused.status == 303, "the old cookie no longer works")
            }
            _ = browser
        }
    }

    @Test func consoleOffServesNothing() async throws {
        try await withService(console: false) { service in
            var browser = ConsoleBrowser(service)
            for page in ["/console", "/console/sign-in", "/console/assets/console.css"] {
                let response = try await browser.get(page)
                #expect(response.status == 404, "\(page) with the console off: \(response.status)")
            }
            #expect(!service.service.routes.contains { $0.path.hasPrefix("/console") })
        }
    }
}
