import Foundation
import HTTPServer
import WalletCore

/// The audit trail in the console: who changed what, from where, newest first, narrowed by actor,
/// action or target (a link from a row narrows to its target), a page at a time.
extension ConsoleRoutes {
    static let auditPageSize = 100

    var auditRoutes: [Route] {
        [signed(.get, "/audit", "Audit trail", needs: .scope(.auditRead)) { request, _, signed in try await auditPage(request, signed) }]
    }

    private func auditPage(_ request: HTTPRequest, _ signed: Signed) async throws -> HTTPResponse {
        let given = { (name: String) -> String? in request.query(name).flatMap { $0.isEmpty ? nil : $0 } }
        let query = AuditService.Query(actor: given("actor"), action: given("action"), target: given("target"))
        let page: AuditPage
        do {
            page = try await audit.page(query, before: given("before"), limit: Self.auditPageSize)
        } catch ServiceError.invalid(let message) {
            return ConsolePage.page("Audit trail", section: "/console/audit", csrf: signed.csrf, role: signed.role, error: message, status: .unprocessableContent, .empty)
        }
        let rows = page.entries.map { entry -> HTML in
            """
            <tr><td>\(ConsolePage.time(entry.occurredAt))</td><td>\(entry.actor)</td><td>\(entry.source)</td><td>\(entry.address ?? "—")</td>
            <td>\(entry.action)</td><td><a href="/console/audit?target=\(QueryComponent.escaped(entry.target))">\(entry.target)</a></td>
            <td>\(entry.changes.isEmpty ? "—" : entry.changes.joined(separator: ", "))</td></tr>
            """
        }
        let field = { (name: String, label: String, hint: String) -> HTML in
            """
            <div><label for="audit-\(name)">\(label)</label>
            <input name="\(name)" id="audit-\(name)" value="\(query[name] ?? "")" aria-describedby="audit-\(name)-hint">
            <p class="hint" id="audit-\(name)-hint">\(hint)</p></div>
            """
        }
        let filters = [("actor", query.actor), ("action", query.action), ("target", query.target)].compactMap { name, value in value.map { "\(name)=\(QueryComponent.escaped($0))" } }
        let older: HTML = page.next.map { next in
            HTML("<p><a rel=\"next\" class=\"next button quiet\" href=\"/console/audit?\((filters + ["before=\(next)"]).joined(separator: "&amp;"))\">Older changes</a></p>")
        } ?? .empty
        return ConsolePage.page("Audit trail", section: "/console/audit", csrf: signed.csrf, role: signed.role, """
            <form id="audit-filter" method="get" action="/console/audit" class="filters">
            \(field("actor", "Actor", "key k_…, api, console, template v3, hold…"))
            \(field("action", "Action", "pass.update, template.publish, key.revoke…"))
            \(field("target", "Target", "pass TYPE/SERIAL, template NAME, key ID…"))
            <button type="submit">Show</button>
            </form>
            \(rows.isEmpty ? "<p class=\"empty\">No change matches.</p>" : """
                <div class="scroll"><table id="audit"><caption>Changes, newest first</caption>
                <thead><tr><th scope="col">When</th><th scope="col">Actor</th><th scope="col">Source</th><th scope="col">Address</th>
                <th scope="col">Action</th><th scope="col">Target</th><th scope="col">What changed</th></tr></thead><tbody>\(rows)</tbody></table></div>
                """ as HTML)
            \(older)
            """)
    }
}

extension AuditService.Query {
    /// The filter called `name` in the console's form.
    subscript(name: String) -> String? {
        switch name {
        case "actor": actor
        case "action": action
        case "target": target
        default: nil
        }
    }
}
