import Logging
import HTTPServer
import WalletStore

/// Adds routes to a router with what every route of the service shares: the route's name for
/// metrics, and errors mapped to problem responses in one place.
struct RouteTable {
    var router: Router
    let logger: Logger
    let adminToken: String

    typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    mutating func add(_ method: HTTPMethod, _ path: String, maxBodySize: Int? = nil, handler: @escaping Handler) {
        let logger = self.logger
        router.on(method, path, options: RouteOptions(maxBodySize: maxBodySize)) { request in
            RouteLabel.current?.route = path
            do {
                return try await handler(request)
            } catch {
                return ProblemResponses.response(for: error, logger: logger)
            }
        }
    }

    /// Adds a route of the admin API: without `Authorization: Bearer <admin token>` it answers 401.
    mutating func addAdmin(_ method: HTTPMethod, _ path: String, maxBodySize: Int? = nil, handler: @escaping Handler) {
        let adminToken = self.adminToken
        add(method, path, maxBodySize: maxBodySize) { request in
            guard Credentials.isAdmin(request, adminToken: adminToken) else {
                return .problem(status: .unauthorized, detail: "send the admin token as Authorization: Bearer <token>", headers: ["WWW-Authenticate": "Bearer"])
            }
            return try await handler(request)
        }
    }
}

extension HTTPRequest {
    /// The pass named by the `:passType` and `:serial` path parameters.
    var passKey: PassKey {
        PassKey(passTypeIdentifier: parameters["passType"] ?? "", serialNumber: parameters["serial"] ?? "")
    }
}
