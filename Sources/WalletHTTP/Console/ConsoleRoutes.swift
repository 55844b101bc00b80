import Foundation
import HTTPServer
import PassLint
import Signing
import WalletCore

/// The web console under `/console`: server-rendered pages for the people who run a pass
/// programme. It adds no way of changing data of its own: every write goes through the same
/// ``PassService`` and ``TemplateService`` calls as the REST API (same validation, same pushes).
///
/// Console routes are a browser interface, not part of the API: they have no operation ids, so
/// `/openapi.json` leaves them out, and the README lists them under "Console".
struct ConsoleRoutes: Sendable {
    let auth: ConsoleAuth
    let passes: PassService
    /// Orders, listed and edited through the same write path as the API's.
    let orders: OrderService
    let templates: TemplateService
    let previews: PreviewService
    let pushWorker: PushWorker
    let expiry: IdentityExpiry
    let webhooks: WebhookService
    let bulkJobs: BulkJobService
    let apiKeys: APIKeyService
    let audit: AuditService
    /// The programme's figures, drawn on the dashboard.
    let analytics: AnalyticsService
    let users: ConsoleUsers
    /// The server's public URL, for the invite links an owner hands out.
    let publicURL: String
    /// The API's bulk job routes, whose results the console's downloads reuse.
    let bulk: BulkJobRoutes
    let assets: ConsoleAssets

    /// Uploads through the console: the same limit as the API's template upload, plus base64 and form overhead.
    static let maxUploadBody = TemplateRoutes.maxUploadSize * 2
    static let maxFormBody = 256 << 10

    /// What a signed-in handler gets: the session (for its CSRF token) and, for a POST, the form.
    struct Signed: Sendable {
        let session: ConsoleSessions.Session
        let form: ConsoleForm?
        /// The author of what the request writes (the audit trail's actor, source and address).
        let origin: APICaller.Origin
        var csrf: String { session.csrf }
        var role: ConsoleRole { session.role }

        /// Whether the role may do what `scope` allows: pages show only the forms it may use.
        func can(_ scope: APIScope) -> Bool { role.scopes.contains(scope) }
    }

    typealias SignedHandler = @Sendable (HTTPRequest, RequestContext, Signed) async throws -> HTTPResponse

    var group: RouteGroup {
        var group = RouteGroup("/console")
        group.add(Route(.get, "", summary: "Console home") { _, _ in ConsolePage.redirect("/console/templates") })
        group.add(Route(.get, "/sign-in", summary: "Sign-in page") { request, _ in try await signInPage(request) })
        group.add(Route(.post, "/sign-in", summary: "Sign in with an e-mail address and password, or the admin token", maxBodySize: 8 << 10, requestBody: .form("ConsoleForm")) { request, _ in
            try await signIn(request)
        })
        group.add(signed(.post, "/sign-out", "Sign out", needs: .signedIn) { request, _, signed in
            let cookie = try await auth.signOut(request)
            try await audit.record("console.sign-out", target: "console", origin: signed.origin)
            return ConsolePage.redirect("/console/sign-in", cookie: cookie)
        })
        group.add(Route(.get, "/assets/:file", summary: "Console stylesheet and script") { request, context in
            try await asset(request, context)
        })
        group.add(templateRoutes)
        group.add(passRoutes)
        group.add(orderRoutes)
        group.add(dataRightsRoutes)
        group.add(operationRoutes)
        group.add(jobRoutes)
        group.add(keyRoutes)
        group.add(auditRoutes)
        group.add(dashboardRoutes { [analytics] filter in
            try await analytics.report(AnalyticsService.Query(
                template: filter.template, from: filter.from.description, to: filter.to.description, interval: filter.interval.rawValue))
        })
        group.add(userRoutes)
        return group
    }

    /// A route that needs a session: a `GET` without one is sent to sign in, a `POST` without one or
    /// without the session's CSRF token is refused with 403.
    func signed(_ method: HTTPMethod, _ path: String, _ summary: String, needs: ConsoleNeed, maxBodySize: Int? = nil,
                start: ResponderStart = .onDaemonThread, _ handler: @escaping SignedHandler) -> Route {
        let auth = self.auth
        return Route(method, path, summary: summary, maxBodySize: maxBodySize ?? (method == .get ? nil : Self.maxFormBody), start: start,
                     requestBody: method == .get ? nil : .form("ConsoleForm")) { request, context in
            guard let session = try await auth.session(of: request) else {
                if method == .get { return ConsolePage.redirect("/console/sign-in") }
                return ConsolePage.document("Signed out", status: .forbidden, script: false, """
                    <main id="main"><h1>Signed out</h1><p class="error" role="alert">Your session has ended. <a href="/console/sign-in">Sign in</a> again and repeat what you did.</p></main>
                    """)
            }
            // The server refuses what the role may not do, whatever the page showed.
            guard needs.allows(session.role) else {
                return ConsolePage.page("Not allowed", section: "", csrf: session.csrf, role: session.role, error: needs.refusal, status: .forbidden, .empty)
            }
            var form: ConsoleForm?
            if method != .get {
                let parsed = try ConsoleForm(request)
                guard let given = parsed["csrf"], constantTimeEquals(given, session.csrf) else {
                    return ConsolePage.page("Refused", section: "", csrf: session.csrf, role: session.role, error: "The form did not carry this session's security token, so nothing was changed. Reload the page and try again.", status: .forbidden, .empty)
                }
                form = parsed
            }
            return try await handler(request, context, Signed(session: session, form: form, origin: ConsoleSessions.origin(of: session.user, address: request.remoteAddress)))
        }
    }

    private func signInPage(_ request: HTTPRequest, error: String? = nil, status: HTTPStatus = .ok) async throws -> HTTPResponse {
        if error == nil, try await auth.session(of: request) != nil { return ConsolePage.redirect("/console/templates") }
        let (token, cookie) = auth.preSession(reusing: ConsoleAuth.cookie(ConsoleAuth.preSessionCookieName, in: request))
        return ConsolePage.document("Sign in", status: status, headers: ["Set-Cookie": cookie], script: false, """
            <main id="main" class="narrow">
            <h1>Sign in to Passwright</h1>
            \(error.map { HTML("<p class=\"error\" role=\"alert\">\($0)</p>") } ?? .empty)
            <form id="sign-in" method="post" action="/console/sign-in">
            <input type="hidden" name="csrf" value="\(token)">
            <label for="email">E-mail address</label>
            <input type="email" name="email" id="email" autocomplete="email">
            <label for="password">Password</label>
            <input type="password" name="password" id="password" autocomplete="current-password">
            <p class="hint">Or, as the owner:</p>
            <label for="token">Admin token</label>
            <input type="password" name="token" id="token" autocomplete="current-password" aria-describedby="token-hint">
            <p class="hint" id="token-hint">The server's <code>PASSWRIGHT_ADMIN_TOKEN</code>, instead of an e-mail address and password. It is checked once and never shown again.</p>
            <button type="submit">Sign in</button>
            </form>
            </main>
            """)
    }

    private func signIn(_ request: HTTPRequest) async throws -> HTTPResponse {
        let form = try ConsoleForm(request)
        guard ConsoleAuth.preSessionMatches(request, form: form) else {
            return try await signInPage(request, error: "The sign-in form had expired. Enter the token again.", status: .forbidden)
        }
        let address = request.remoteAddress
        let token = form["token"] ?? "", email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let outcome = token.isEmpty
            ? try await auth.signIn(email: email, password: form["password"] ?? "", from: address ?? "unknown")
            : try await auth.signIn(token: token, from: address ?? "unknown")
        switch outcome {
        case .signedIn(let cookie, let user):
            try await audit.record("console.sign-in", target: "console", origin: ConsoleSessions.origin(of: user, address: address))
            return ConsolePage.redirect("/console/templates", cookie: cookie)
        case .refused:
            // A guessing address shows in the trail (never what it typed); past the throttle's
            // limit refusals are not written, so a flood cannot fill the trail.
            try await audit.record("console.sign-in-refused", target: "console", origin: ConsoleSessions.origin(of: nil, address: address))
            let message = token.isEmpty
                ? "That e-mail address and password do not match an active user. Check both, or ask an owner for a new invite."
                : "That is not the admin token. Check PASSWRIGHT_ADMIN_TOKEN on the server and try again."
            return try await signInPage(request, error: message, status: .unauthorized)
        case .tooManyAttempts:
            return try await signInPage(request, error: "Too many failed sign-ins from this address or for this account. Wait a minute, then try again.", status: .tooManyRequests)
        }
    }

    private func asset(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let name = try context.parameters.require("file")
        guard let asset = assets.files[name] else {
            return ConsolePage.document("Not found", status: .notFound, script: false, "<main id=\"main\"><h1>Not found</h1></main>")
        }
        // The sign-in page needs the stylesheet; everything else needs a session (403, not a redirect:
        // a script request that followed one to the sign-in page would get HTML).
        if name != "console.css", try await auth.session(of: request) == nil {
            var refused = HTTPResponse.bytes(Data("sign in first\n".utf8), contentType: "text/plain; charset=utf-8", status: .forbidden)
            ConsolePage.secure(&refused)
            return refused
        }
        var response = HTTPResponse.bytes(asset.data, contentType: asset.contentType)
        ConsolePage.secure(&response)
        response.headers["Cache-Control"] = "private, max-age=300"
        return response
    }
}

/// The console's stylesheet and script, package resources read once at start.
struct ConsoleAssets: Sendable {
    struct Asset: Sendable {
        let data: Data
        let contentType: String
    }

    let files: [String: Asset]

    static func load() throws -> ConsoleAssets {
        var files: [String: Asset] = [:]
        for (name, type) in [("console.css", "text/css; charset=utf-8"), ("console.js", "text/javascript; charset=utf-8")] {
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources/console") else {
                throw ServiceError.invalid("the console's \(name) is missing from the package resources")
            }
            files[name] = Asset(data: try Data(contentsOf: url), contentType: type)
        }
        return ConsoleAssets(files: files)
    }
}
