import HTTPServer

/// Adds routes to a router with what every route of the service shares: the route's name for
/// metrics, and errors mapped to problem responses in one place.
struct RouteTable {
    var router: Router
    let logger: Logger

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
}
