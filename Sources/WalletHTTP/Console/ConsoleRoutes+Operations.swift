import Foundation
import HTTPServer
import WalletCore

/// Push, device logs and identities: what operations look at when passes do not update.
extension ConsoleRoutes {
    var operationRoutes: [Route] {
        [
            signed(.get, "/push", "Push", needs: .scope(.passesRead)) { _, _, signed in try await pushPage(signed) },
            signed(.get, "/devices", "Device logs", needs: .scope(.passesRead)) { _, _, signed in try await deviceLogs(signed) },
            signed(.get, "/identities", "Identities", needs: .scope(.templatesRead)) { _, _, signed in try await identities(signed) },
            signed(.get, "/webhooks", "Webhooks", needs: .scope(.webhooksManage)) { _, _, signed in try await webhookPage(signed) },
            signed(.post, "/webhooks", "Subscribe an endpoint", needs: .scope(.webhooksManage)) { _, _, signed in try await subscribe(signed) },
            signed(.post, "/webhooks/:webhook/enable", "Enable an endpoint again", needs: .scope(.webhooksManage)) { _, context, signed in
                let id = try context.parameters.require("webhook")
                guard try await webhooks.update(id, WebhookService.Change(enabled: true), origin: signed.origin) != nil else { return try await webhookPage(signed, error: "No endpoint \(id).", status: .notFound) }
                return try await webhookPage(signed, notice: "\(id) is enabled again: its pending deliveries resume, in order.")
            },
            signed(.post, "/webhooks/:webhook/remove", "Remove an endpoint", needs: .scope(.webhooksManage)) { _, context, signed in
                let id = try context.parameters.require("webhook")
                guard try await webhooks.delete(id, origin: signed.origin) else { return try await webhookPage(signed, error: "No endpoint \(id).", status: .notFound) }
                return try await webhookPage(signed, notice: "\(id) and its deliveries are removed.")
            },
        ]
    }

    /// Subscribes an endpoint from the form; the page then shows its signing secret, this once.
    private func subscribe(_ signed: Signed) async throws -> HTTPResponse {
        let form = signed.form ?? ConsoleForm()
        let list = { (name: String) -> [String]? in
            let items = (form[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return items.isEmpty ? nil : items
        }
        do {
            let created = try await webhooks.create(WebhookService.Subscription(
                url: form["url"] ?? "", description: form["description"] ?? "", types: list("types"), templates: list("templates")), origin: signed.origin)
            return try await webhookPage(signed, secret: (created.webhook.id, created.secret))
        } catch ServiceError.invalid(let message) {
            return try await webhookPage(signed, error: message, status: .unprocessableContent)
        }
    }

    /// Every endpoint with its state (and why it stopped) and its newest deliveries, and the form that
    /// subscribes another. A new endpoint's secret is shown once, here or by the API and the CLI.
    private func webhookPage(
        _ signed: Signed, notice: String? = nil, error: String? = nil, status: HTTPStatus = .ok, secret: (id: String, value: String)? = nil
    ) async throws -> HTTPResponse {
        let endpoints = try await webhooks.list().webhooks
        var sections: [HTML] = []
        for endpoint in endpoints {
            let deliveries = try await webhooks.deliveries(endpoint.id, limit: 10)?.deliveries ?? []
            let state: HTML = endpoint.enabled ? "<span class=\"ok\">enabled</span>" : "<span class=\"bad\">disabled: \(endpoint.disabledReason ?? "")</span>"
            let rows = deliveries.map { delivery -> HTML in
                """
                <tr><td>\(ConsolePage.time(delivery.createdAt))</td><td>\(delivery.event)</td><td>\(delivery.type ?? "")</td><td>\(delivery.state)</td>
                <td>\(ConsolePage.number(delivery.attempts))</td><td>\(delivery.lastStatus.map(String.init) ?? delivery.lastError ?? "—")</td>
                <td>\(delivery.latencyMilliseconds.map { "\($0) ms" } ?? "—")</td><td class="log">\(delivery.responseExcerpt ?? "")</td></tr>
                """
            }
            sections.append("""
                <h2>\(endpoint.description.isEmpty ? endpoint.id : endpoint.description)</h2>
                <dl class="facts"><dt>Id</dt><dd>\(endpoint.id)</dd><dt>URL</dt><dd>\(endpoint.url)</dd>
                <dt>Events</dt><dd>\(endpoint.types.joined(separator: ", "))</dd><dt>Templates</dt><dd>\(endpoint.templates?.joined(separator: ", ") ?? "all")</dd>
                <dt>State</dt><dd>\(state)</dd></dl>
                <div class="actions">
                \(endpoint.enabled ? .empty : """
                    <form method="post" action="/console/webhooks/\(endpoint.id)/enable">\(ConsolePage.csrfField(signed.csrf))<button type="submit">Enable \(endpoint.id) again</button></form>
                    """ as HTML)
                <form method="post" action="/console/webhooks/\(endpoint.id)/remove">\(ConsolePage.csrfField(signed.csrf))<button type="submit" class="quiet">Remove \(endpoint.id)</button></form>
                </div>
                \(rows.isEmpty ? "<p class=\"empty\">Nothing delivered yet.</p>" : """
                    <div class="scroll"><table><caption>Newest deliveries to \(endpoint.id)</caption>
                    <thead><tr><th scope="col">Queued</th><th scope="col">Event</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Attempts</th>
                    <th scope="col">Last answer</th><th scope="col">Latency</th><th scope="col">Response</th></tr></thead><tbody>\(rows)</tbody></table></div>
                    """ as HTML)
                """)
        }
        let types = WebhookService.eventTypeNames.joined(separator: ", ")
        let shown: HTML = secret.map { secret in
            """
            <div class="notice" role="status" id="new-secret"><p>\(secret.id) is subscribed. Its signing secret, shown this once (keep it with the receiver):</p>
            <p><code>\(secret.value)</code></p></div>
            """
        } ?? .empty
        return ConsolePage.page("Webhooks", section: "/console/webhooks", csrf: signed.csrf, role: signed.role, notice: notice, error: error, status: status, """
            \(shown)
            \(endpoints.isEmpty ? "<p class=\"empty\">No webhook endpoint yet.</p>" : sections.joined)
            <h2>Subscribe an endpoint</h2>
            <form id="subscribe" method="post" action="/console/webhooks">
            \(ConsolePage.csrfField(signed.csrf))
            <label for="webhook-url">URL</label>
            <input name="url" id="webhook-url" type="url" required aria-describedby="webhook-url-hint" placeholder="https://crm.example/hooks">
            <p class="hint" id="webhook-url-hint">https, or http to this machine's loopback only.</p>
            <label for="webhook-description">Description</label>
            <input name="description" id="webhook-description">
            <label for="webhook-types">Event types</label>
            <input name="types" id="webhook-types" aria-describedby="webhook-types-hint">
            <p class="hint" id="webhook-types-hint">Comma-separated, empty for all: \(types).</p>
            <label for="webhook-templates">Templates</label>
            <input name="templates" id="webhook-templates" aria-describedby="webhook-templates-hint">
            <p class="hint" id="webhook-templates-hint">Comma-separated template names, empty for events of any template.</p>
            <button type="submit">Subscribe</button>
            </form>
            """)
    }

    private func pushPage(_ signed: Signed) async throws -> HTTPResponse {
        let outbox = try await passes.outboxStats()
        let counters = pushWorker.counters
        let waiting = outbox.queued + outbox.inFlight
        let eta = pushWorker.rate.map { waiting == 0 ? "—" : "\(Int((Double(waiting) / Double($0)).rounded(.up))) s" } ?? (waiting == 0 ? "—" : "as fast as APNs answers")
        func reasons(_ counts: [String: Int], id: String, caption: String, empty: String) -> HTML {
            guard !counts.isEmpty else { return "<p class=\"empty\">\(empty)</p>" }
            let rows = counts.sorted { $0.value > $1.value }.map { "<tr><th scope=\"row\">\($0.key)</th><td>\(ConsolePage.number($0.value))</td></tr>" as HTML }
            return "<div class=\"scroll\"><table id=\"\(id)\"><caption>\(caption)</caption><thead><tr><th scope=\"col\">Reason</th><th scope=\"col\">Pushes</th></tr></thead><tbody>\(rows)</tbody></table></div>"
        }
        let stopped = counters.stoppedIdentities.sorted { $0.key < $1.key }.map {
            "<tr><th scope=\"row\">\($0.key)</th><td>\($0.value)</td></tr>" as HTML
        }
        return ConsolePage.page("Push", section: "/console/push", csrf: signed.csrf, role: signed.role, """
            <dl class="facts" id="queue">
            <dt>Waiting</dt><dd>\(ConsolePage.number(waiting))</dd>
            <dt>In flight</dt><dd>\(ConsolePage.number(outbox.inFlight))</dd>
            <dt>Oldest waiting</dt><dd>\(outbox.oldestPendingAge.map { "\($0.components.seconds) s" } ?? "—")</dd>
            <dt>Sent by this instance</dt><dd>\(ConsolePage.number(counters.sent))</dd>
            <dt>Rate</dt><dd>\(pushWorker.rate.map { "\($0) per second" } ?? "unpaced")</dd>
            <dt>Time left</dt><dd>\(eta)</dd>
            <dt>Push</dt><dd>\(pushWorker.hasSenders ? "on" : "off: no APNs identity, updates wait in the outbox")</dd>
            </dl>
            <h2>Failures by reason</h2>
            \(reasons(counters.failures, id: "failures", caption: "APNs answers and transport errors that failed a push", empty: "No push has failed."))
            <h2>Waiting after a failure</h2>
            \(reasons(outbox.failuresByReason, id: "retrying", caption: "Pushes waiting to be retried, by their last error", empty: "Nothing is waiting to be retried."))
            <h2>Stopped identities</h2>
            \(stopped.isEmpty ? "<p class=\"empty\">No identity is stopped. APNs stops one when it refuses its certificate (403); renew it and restart.</p>" : """
                <div class="scroll"><table id="stopped"><caption>Identities APNs refused</caption><thead><tr><th scope="col">Pass type</th><th scope="col">Reason</th></tr></thead><tbody>\(stopped)</tbody></table></div>
                """ as HTML)
            """)
    }

    private func deviceLogs(_ signed: Signed) async throws -> HTTPResponse {
        let logs = try await passes.recentDeviceLogs(limit: 200)
        let rows = logs.map { "<tr><td>\(ConsolePage.time($0.receivedAt))</td><td class=\"log\">\($0.message)</td></tr>" as HTML }
        return ConsolePage.page("Device logs", section: "/console/devices", csrf: signed.csrf, role: signed.role, rows.isEmpty
            ? "<p class=\"empty\">No device has sent a log. Wallet sends one when it cannot reach or use this server, so an empty list is good news.</p>"
            : """
                <div class="scroll"><table id="device-logs"><caption>What devices reported, newest first</caption>
                <thead><tr><th scope="col">Received</th><th scope="col">Message</th></tr></thead><tbody>\(rows)</tbody></table></div>
                """)
    }

    private func identities(_ signed: Signed) async throws -> HTTPResponse {
        let statuses = try await templates.library.statuses()
        var users: [String: [String]] = [:]
        for (name, status) in statuses {
            if let passType = status.entry.compiler?.template.passTypeIdentifier { users[passType, default: []].append(name) }
        }
        let now = passes.now()
        let rows = expiry.certificates.sorted { $0.key < $1.key }.map { passType, certificate -> HTML in
            let days = Int((certificate.notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
            let state: HTML = certificate.notAfter <= now ? "<span class=\"bad\">expired</span>"
                : certificate.needsRenewal(at: now) ? "<span class=\"bad\">renew now</span>" : "<span class=\"ok\">valid</span>"
            return """
                <tr><th scope="row">\(passType)</th><td>\(certificate.teamIdentifier ?? "—")</td><td>\(ConsolePage.time(certificate.notAfter))</td>
                <td>\(ConsolePage.number(days))</td><td>\(state)</td><td>\((users[passType] ?? []).sorted().joined(separator: ", "))</td></tr>
                """
        }
        return ConsolePage.page("Identities", section: "/console/identities", csrf: signed.csrf, role: signed.role, rows.isEmpty
            ? "<p class=\"empty\">No signing identity is installed. Make one with <code>passwright certs request</code> and <code>passwright certs import</code>.</p>"
            : """
                <div class="scroll"><table id="identities"><caption>Pass type certificates</caption>
                <thead><tr><th scope="col">Pass type</th><th scope="col">Team</th><th scope="col">Expires</th><th scope="col">Days left</th><th scope="col">State</th><th scope="col">Templates</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """)
    }
}
