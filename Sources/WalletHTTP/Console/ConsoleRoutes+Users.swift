import Foundation
import HTTPServer
import WalletCore

/// Console users, for owners: invite someone with a role (the one-time link shown once), change a
/// role, disable (their sessions end at once) or enable, a new invite link, sign out everywhere. And
/// the invite page itself, where the invited person sets a password and is signed in.
extension ConsoleRoutes {
    var userRoutes: [Route] {
        [
            signed(.get, "/users", "Users", needs: .owner) { _, _, signed in try await userPage(signed) },
            signed(.post, "/users", "Invite a user", needs: .owner) { _, _, signed in try await inviteUser(signed) },
            signed(.post, "/users/:user/role", "Change a user's role", needs: .owner) { _, context, signed in
                let id = try context.parameters.require("user")
                guard let role = signed.form?["role"].flatMap(ConsoleRole.init(rawValue:)) else {
                    return try await userPage(signed, error: "Choose a role: \(ConsoleRole.allCases.map(\.rawValue).joined(separator: ", ")).", status: .unprocessableContent)
                }
                guard let user = try await users.setRole(id, role, origin: signed.origin) else { return try await userPage(signed, error: "No user \(id).", status: .notFound) }
                return try await userPage(signed, notice: "\(user.name) is now \(role.rawValue).")
            },
            signed(.post, "/users/:user/disable", "Disable a user", needs: .owner) { _, context, signed in
                try await setDisabled(try context.parameters.require("user"), true, signed)
            },
            signed(.post, "/users/:user/enable", "Enable a user", needs: .owner) { _, context, signed in
                try await setDisabled(try context.parameters.require("user"), false, signed)
            },
            signed(.post, "/users/:user/reinvite", "A new invite link", needs: .owner) { _, context, signed in
                let id = try context.parameters.require("user")
                guard let invitation = try await users.reinvite(id, origin: signed.origin) else { return try await userPage(signed, error: "No user \(id).", status: .notFound) }
                return try await userPage(signed, invited: invitation)
            },
            signed(.post, "/users/:user/sign-out", "Sign a user out everywhere", needs: .owner) { _, context, signed in
                let id = try context.parameters.require("user")
                try await users.signOutEverywhere(id)
                return try await userPage(signed, notice: "Every session of \(id) has ended.")
            },
            Route(.get, "/invite/:token", summary: "Accept an invite") { request, context in
                try await invitePage(request, token: try context.parameters.require("token"))
            },
            Route(.post, "/invite/:token", summary: "Set a password and sign in", maxBodySize: 8 << 10, requestBody: .form("ConsoleForm")) { request, context in
                try await acceptInvite(request, token: try context.parameters.require("token"))
            },
        ]
    }

    private func setDisabled(_ id: String, _ disabled: Bool, _ signed: Signed) async throws -> HTTPResponse {
        guard let user = try await users.setDisabled(id, disabled, origin: signed.origin) else {
            return try await userPage(signed, error: "No user \(id).", status: .notFound)
        }
        return try await userPage(signed, notice: disabled ? "\(user.name) is disabled and signed out everywhere." : "\(user.name) can sign in again.")
    }

    private func inviteUser(_ signed: Signed) async throws -> HTTPResponse {
        let form = signed.form ?? ConsoleForm()
        guard let role = form["role"].flatMap(ConsoleRole.init(rawValue:)) else {
            return try await userPage(signed, error: "Choose a role.", status: .unprocessableContent)
        }
        do {
            let invitation = try await users.invite(email: form["email"] ?? "", name: form["name"] ?? "", role: role, origin: signed.origin)
            return try await userPage(signed, invited: invitation)
        } catch ServiceError.invalid(let message) {
            return try await userPage(signed, error: message, status: .unprocessableContent)
        }
    }

    private func userPage(
        _ signed: Signed, notice: String? = nil, error: String? = nil, status: HTTPStatus = .ok, invited: ConsoleUsers.Invitation? = nil
    ) async throws -> HTTPResponse {
        let now = passes.now()
        let rows = try await users.list().map { user -> HTML in
            let state = user.disabledAt != nil ? "disabled" : user.passwordHash == nil
                ? ((user.inviteExpiresAt ?? .distantPast) > now ? "invited" : "invite expired") : "active"
            let roles = ConsoleRole.allCases.map { role -> HTML in
                "<option value=\"\(role.rawValue)\"\(role.rawValue == user.role ? " selected" : "")>\(role.rawValue)</option>"
            }
            let toggle: HTML = user.disabledAt == nil
                ? "<form method=\"post\" action=\"/console/users/\(user.id)/disable\">\(ConsolePage.csrfField(signed.csrf))<button type=\"submit\" class=\"quiet\">Disable \(user.name)</button></form>"
                : "<form method=\"post\" action=\"/console/users/\(user.id)/enable\">\(ConsolePage.csrfField(signed.csrf))<button type=\"submit\" class=\"quiet\">Enable \(user.name)</button></form>"
            let link: HTML = user.passwordHash == nil && user.disabledAt == nil
                ? "<form method=\"post\" action=\"/console/users/\(user.id)/reinvite\">\(ConsolePage.csrfField(signed.csrf))<button type=\"submit\" class=\"quiet\">New invite link for \(user.name)</button></form>"
                : "<form method=\"post\" action=\"/console/users/\(user.id)/sign-out\">\(ConsolePage.csrfField(signed.csrf))<button type=\"submit\" class=\"quiet\">Sign \(user.name) out everywhere</button></form>"
            return """
                <tr><th scope="row">\(user.name)</th><td>\(user.email)</td><td>\(state)</td><td>\(ConsolePage.time(user.lastSignInAt))</td>
                <td><form method="post" action="/console/users/\(user.id)/role" class="inline">\(ConsolePage.csrfField(signed.csrf))
                <label for="role-\(user.id)" class="visually-hidden">Role of \(user.name)</label>
                <select name="role" id="role-\(user.id)">\(roles)</select> <button type="submit" class="quiet">Change role of \(user.name)</button></form></td>
                <td><div class="actions">\(toggle)\(link)</div></td></tr>
                """
        }
        let shown: HTML = invited.map { invitation in
            """
            <div class="notice" role="status" id="invite-link"><p>The invite link of \(invitation.user.name) (\(invitation.user.role)), shown this once; it works once, for \(Int(ConsoleUsers.inviteLifetime / 3600)) hours:</p>
            <p><code>\(publicURL)/console/invite/\(invitation.token)</code></p></div>
            """
        } ?? .empty
        let roleOptions = ConsoleRole.allCases.map { role -> HTML in "<option value=\"\(role.rawValue)\"\(role == .viewer ? " selected" : "")>\(role.rawValue): \(role.summary)</option>" }
        return ConsolePage.page("Users", section: "/console/users", csrf: signed.csrf, role: signed.role, notice: notice, error: error, status: status, """
            \(shown)
            \(rows.isEmpty ? "<p class=\"empty\">No user yet: everyone signs in with the admin token. Invite each person with the role they need.</p>" : """
                <div class="scroll"><table id="users"><caption>Console users</caption>
                <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">State</th><th scope="col">Last sign-in</th>
                <th scope="col">Role</th><th scope="col">Actions</th></tr></thead><tbody>\(rows)</tbody></table></div>
                """ as HTML)
            <h2>Invite someone</h2>
            <form id="invite-user" method="post" action="/console/users">
            \(ConsolePage.csrfField(signed.csrf))
            <label for="invite-name">Name</label>
            <input name="name" id="invite-name" required maxlength="100">
            <label for="invite-email">E-mail address</label>
            <input type="email" name="email" id="invite-email" required maxlength="254">
            <label for="invite-role">Role</label>
            <select name="role" id="invite-role">\(roleOptions)</select>
            <button type="submit">Invite</button>
            </form>
            """)
    }

    private func invitePage(_ request: HTTPRequest, token: String, error: String? = nil, status: HTTPStatus = .ok) async throws -> HTTPResponse {
        guard let user = try await users.invited(token: token) else { return Self.inviteGone }
        let (csrf, cookie) = auth.preSession(reusing: ConsoleAuth.cookie(ConsoleAuth.preSessionCookieName, in: request))
        return ConsolePage.document("Welcome", status: status, headers: ["Set-Cookie": cookie], script: false, """
            <main id="main" class="narrow">
            <h1>Welcome, \(user.name)</h1>
            <p>You are invited to Passwright's console as <strong>\(user.role)</strong> (\(ConsoleUsers.role(of: user).summary)), signing in as \(user.email).</p>
            \(error.map { HTML("<p class=\"error\" role=\"alert\">\($0)</p>") } ?? .empty)
            <form id="accept-invite" method="post" action="/console/invite/\(token)">
            <input type="hidden" name="csrf" value="\(csrf)">
            <label for="new-password">Choose a password</label>
            <input type="password" name="password" id="new-password" autocomplete="new-password" required minlength="\(ConsoleUsers.minimumPasswordLength)" aria-describedby="new-password-hint">
            <p class="hint" id="new-password-hint">At least \(ConsoleUsers.minimumPasswordLength) characters. Only a hash of it is kept.</p>
            <button type="submit">Set password and sign in</button>
            </form>
            </main>
            """)
    }

    private func acceptInvite(_ request: HTTPRequest, token: String) async throws -> HTTPResponse {
        let form = try ConsoleForm(request)
        guard ConsoleAuth.preSessionMatches(request, form: form) else {
            return try await invitePage(request, token: token, error: "The form had expired. Enter the password again.", status: .forbidden)
        }
        do {
            guard let user = try await users.accept(token: token, password: form["password"] ?? "") else { return Self.inviteGone }
            let cookie = try await auth.startSession(for: user)
            try await audit.record("console.sign-in", target: "console", origin: ConsoleSessions.origin(of: user, address: request.remoteAddress))
            return ConsolePage.redirect("/console/templates", cookie: cookie)
        } catch ServiceError.invalid(let message) {
            return try await invitePage(request, token: token, error: message, status: .unprocessableContent)
        }
    }

    /// A used, expired or unknown invite: the same answer for each, so a link cannot be probed.
    private static var inviteGone: HTTPResponse {
        ConsolePage.document("Invite not valid", status: .gone, script: false, """
            <main id="main" class="narrow"><h1>This invite link does not work</h1>
            <p class="error" role="alert">It was used already, it expired, or it was replaced by a newer one. Ask an owner of this Passwright for a new invite link.</p>
            <p><a href="/console/sign-in">Sign in</a> if you have set your password already.</p></main>
            """)
    }
}
