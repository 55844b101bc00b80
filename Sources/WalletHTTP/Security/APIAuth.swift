import HTTPServer
import PassModel
import WalletCore

/// The admin API's auth: `Authorization: Bearer <API key>` (or the admin token, which has every
/// scope), as one route auth value per scope. Each route names the scope it needs; the router then
/// answers `401` without a valid key and `403` naming the scope when the key lacks it, and the OpenAPI
/// document lists the scope on the operation. A key limited to some templates is refused (`403`) on a
/// route whose path names another template, or a pass, order or bulk job of another template.
struct APIAuth: Sendable {
    let keys: APIKeyService
    let adminToken: String
    let passes: PassService
    let orders: OrderService
    let jobs: BulkJobService

    /// The auth of a route that needs `scope`.
    func requiring(_ scope: APIScope) -> RouteAuth {
        RouteAuth(
            scheme: "apiKey", refusal: "Missing, wrong, revoked or expired API key", scopes: [scope.rawValue],
            headCheck: { request in credential(of: request) == nil ? Self.unauthorized : nil }, resolving: { request, parameters in
            guard let caller = try await caller(of: request) else { return .refused(Self.unauthorized) }
            guard caller.scopes.contains(scope) else {
                return .refused(.problem(status: .forbidden, detail: "this key lacks the scope \(scope.rawValue), which \(request.method.rawValue) \(request.path) needs"))
            }
            if caller.templates != nil, let template = try await template(named: parameters), !caller.allows(template: template) {
                return .refused(.problem(status: .forbidden, detail: "this key may not use the template \(template)"))
            }
            return .allowed(identity: caller)
        })
    }

    /// Who `request` authenticates as, with the request's address and agent, or `nil`.
    func caller(of request: HTTPRequest) async throws -> APICaller? {
        let caller: APICaller?
        switch credential(of: request) {
        case .adminToken?: caller = .adminToken
        case .key(let key)?: caller = try await keys.authenticate(key, address: request.remoteAddress)
        case nil: caller = nil
        }
        return caller?.calling(from: request.remoteAddress, agent: request.headers["user-agent"])
    }

    private enum Credential {
        case adminToken
        case key(String)
    }

    /// What the head carries, checked as far as it can be without the database: the admin token, or
    /// something shaped like an API key (its check characters right).
    private func credential(of request: HTTPRequest) -> Credential? {
        if Credentials.isAdmin(request, adminToken: adminToken) { return .adminToken }
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else { return nil }
        let text = String(header.dropFirst(7).trimmingHTTPWhitespace)
        return APIKeyToken(text) == nil ? nil : .key(text)
    }

    /// The template the path names: directly, or through the pass, order or bulk job it names.
    private func template(named parameters: PathParameters) async throws -> String? {
        if let template = parameters["template"] { return template }
        if let type = parameters["passType"], let serial = parameters["serial"] {
            return try await passes.pass(PassKey(passTypeIdentifier: type, serialNumber: serial))?.template
        }
        if let type = parameters["orderType"], let identifier = parameters["orderId"] {
            return try await orders.order(OrderService.Key(orderTypeIdentifier: type, orderIdentifier: identifier))?.template
        }
        if let job = parameters["job"] { return try await jobs.job(job)?.template }
        return nil
    }

    static let unauthorized = HTTPResponse.problem(
        status: .unauthorized, detail: "send an API key (or the admin token) as Authorization: Bearer <key>", headers: ["WWW-Authenticate": "Bearer"])
}
