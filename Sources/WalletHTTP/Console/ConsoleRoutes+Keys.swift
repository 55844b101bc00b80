import Foundation
import HTTPServer
import WalletCore

/// API keys in the console: the list with each key's scopes, templates and last use, a form that
/// creates one (its key shown this once), and rotate and revoke buttons; the same ``APIKeyService``
/// calls as the API, with `console` as the actor.
extension ConsoleRoutes {
    var keyRoutes: [Route] {
        [
            signed(.get, "/keys", "API keys", needs: .scope(.keysManage)) { _, _, signed in try await keyPage(signed) },
            signed(.post, "/keys", "Create an API key", needs: .scope(.keysManage)) { _, _, signed in try await createKey(signed) },
            signed(.post, "/keys/:key/rotate", "Rotate an API key", needs: .scope(.keysManage)) { _, context, signed in
                let id = try context.parameters.require("key")
                guard let issued = try await apiKeys.rotate(id, origin: signed.origin) else { return try await keyPage(signed, error: "No key \(id) in use.", status: .notFound) }
                return try await keyPage(signed, shown: (issued.key.id, issued.token))
            },
            signed(.post, "/keys/:key/revoke", "Revoke an API key", needs: .scope(.keysManage)) { _, context, signed in
                let id = try context.parameters.require("key")
                guard try await apiKeys.revoke(id, origin: signed.origin) else { return try await keyPage(signed, error: "No key \(id) in use.", status: .notFound) }
                return try await keyPage(signed, notice: "\(id) is revoked: it stops working on every instance within two seconds.")
            },
        ]
    }

    private func createKey(_ signed: Signed) async throws -> HTTPResponse {
        let form = signed.form ?? ConsoleForm()
        let scopes = APIScope.allCases.map(\.rawValue).filter { form["scope-\($0)"] == "on" }
        let templates = (form["templates"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var expires: Date?
        if let day = form["expires"], !day.isEmpty {
            guard let date = try? Date(day + "T00:00:00Z", strategy: .iso8601) else {
                return try await keyPage(signed, error: "The expiry must be a date such as 2027-06-30.", status: .unprocessableContent)
            }
            expires = date
        }
        do {
            let issued = try await apiKeys.create(
                name: form["name"] ?? "", scopes: scopes, templates: templates.isEmpty ? nil : templates, expiresAt: expires, origin: signed.origin)
            return try await keyPage(signed, shown: (issued.key.id, issued.token))
        } catch ServiceError.invalid(let message) {
            return try await keyPage(signed, error: message, status: .unprocessableContent)
        }
    }

    private func keyPage(
        _ signed: Signed, notice: String? = nil, error: String? = nil, status: HTTPStatus = .ok, shown: (id: String, token: String)? = nil
    ) async throws -> HTTPResponse {
        let now = passes.now()
        let keys = try await apiKeys.list().map { APIKeyDetails($0, now: now) }
        let rows = keys.map { key -> HTML in
            let actions: HTML = key.state == "revoked" ? "—" : """
                <div class="actions">
                <form method="post" action="/console/keys/\(key.id)/rotate">\(ConsolePage.csrfField(signed.csrf))<button type="submit" class="quiet">Rotate \(key.id)</button></form>
                <form method="post" action="/console/keys/\(key.id)/revoke">\(ConsolePage.csrfField(signed.csrf))<button type="submit" class="quiet">Revoke \(key.id)</button></form>
                </div>
                """
            return """
                <tr><th scope="row">\(key.id)</th><td>\(key.name)</td><td>\(key.state)</td><td>\(key.scopes.joined(separator: ", "))</td>
                <td>\(key.templates?.joined(separator: ", ") ?? "all")</td><td>\(ConsolePage.time(key.lastUsedAt)) \(key.lastUsedAddress ?? "")</td><td>\(actions)</td></tr>
                """
        }
        let once: HTML = shown.map { shown in
            """
            <div class="notice" role="status" id="new-key"><p>The key of \(shown.id), shown this once (only its hash is kept):</p>
            <p><code>\(shown.token)</code></p></div>
            """
        } ?? .empty
        let scopeBoxes = APIScope.allCases.map { scope -> HTML in
            "<div class=\"check\"><input type=\"checkbox\" name=\"scope-\(scope.rawValue)\" id=\"scope-\(scope.rawValue)\"><label for=\"scope-\(scope.rawValue)\">\(scope.rawValue)</label></div>"
        }
        return ConsolePage.page("API keys", section: "/console/keys", csrf: signed.csrf, role: signed.role, notice: notice, error: error, status: status, """
            \(once)
            \(rows.isEmpty ? "<p class=\"empty\">No API key yet. Backends then use the admin token, which can do everything; give each one a key with only the scopes it needs.</p>" : """
                <div class="scroll"><table id="keys"><caption>API keys, newest first</caption>
                <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">State</th><th scope="col">Scopes</th><th scope="col">Templates</th>
                <th scope="col">Last used</th><th scope="col">Actions</th></tr></thead><tbody>\(rows)</tbody></table></div>
                """ as HTML)
            <h2>Create a key</h2>
            <form id="create-key" method="post" action="/console/keys">
            \(ConsolePage.csrfField(signed.csrf))
            <label for="key-name">Name</label>
            <input name="name" id="key-name" required maxlength="100" aria-describedby="key-name-hint">
            <p class="hint" id="key-name-hint">Who or what uses it, such as crm-production.</p>
            <fieldset><legend>Scopes</legend>\(scopeBoxes)</fieldset>
            <label for="key-templates">Templates</label>
            <input name="templates" id="key-templates" aria-describedby="key-templates-hint">
            <p class="hint" id="key-templates-hint">Comma-separated; empty for every template.</p>
            <label for="key-expires">Expires</label>
            <input name="expires" id="key-expires" inputmode="numeric" pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}" placeholder="2027-06-30" aria-describedby="key-expires-hint">
            <p class="hint" id="key-expires-hint">A date such as 2027-06-30 (the key stops at its start, UTC); empty for never.</p>
            <button type="submit">Create key</button>
            </form>
            """)
    }
}
