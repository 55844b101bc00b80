import Foundation
import HTTPServer
import WalletCore

/// `GET /api/v1/audit`: who changed what, from where, newest first, for a security review or a
/// holder's question ("who voided my pass?").
struct AuditRoutes {
    let audit: AuditService

    func group(auth: APIAuth) -> RouteGroup {
        let audit = self.audit
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .get, "/audit", operationID: "listAudit",
            summary: "The audit trail, newest first: each change's actor, source, address, action, target and the names of what changed",
            auth: auth.requiring(.auditRead),
            parameters: [
                RouteParameter("actor", in: .query), RouteParameter("action", in: .query), RouteParameter("target", in: .query),
                RouteParameter("source", in: .query, schema: "AuditSource"), RouteParameter("since", in: .query, schema: "DateTime"),
                RouteParameter("until", in: .query, schema: "DateTime"), RouteParameter("before", in: .query),
                RouteParameter("limit", in: .query, schema: "AuditLimit"),
            ],
            responses: [.json(.ok, "A page of the audit trail", schema: AuditPage.schemaName), .problem(.unprocessableContent, "An unknown cursor, source, time or limit")]
        ) { request, _ in
            let limitText = request.query("limit") ?? "100"
            guard let limit = Int(limitText) else { throw ServiceError.invalid("limit must be a number from 1 to 500, not '\(limitText)'") }
            let query = AuditService.Query(
                actor: request.query("actor"), action: request.query("action"), target: request.query("target"), source: request.query("source"),
                since: try Self.time(request.query("since"), "since"), until: try Self.time(request.query("until"), "until"))
            let page = try await audit.page(query, before: request.query("before"), limit: limit)
            var response = try HTTPResponse.json(page)
            if let next = page.next {
                let items = request.queryItems.filter { $0.name != "before" }.map { ($0.name, $0.value) } + [("before", next)]
                response.headers["Link"] = "<\(request.path)?\(QueryComponent.query(items))>; rel=\"next\""
            }
            return response
        })
        return group
    }

    /// An RFC 3339 time from the query, or what is wrong with it.
    private static func time(_ text: String?, _ name: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw ServiceError.invalid("\(name) must be an RFC 3339 time such as 2026-12-01T00:00:00Z, not '\(text)'")
        }
        return date
    }

}
