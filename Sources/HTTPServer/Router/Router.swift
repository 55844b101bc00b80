import Logging
/// Dispatches requests to handlers by method and path, and answers what no handler should see:
/// unknown paths (`404`), known paths with another method (`405` with `Allow`), unsafe path parameters (`400`).
///
/// ```swift
/// var router = Router()
/// router.get("/wallet/v1/passes/:passTypeIdentifier/:serialNumber") { request in
///     .bytes(archive, contentType: "application/vnd.apple.pkpass")
/// }
/// ```
/// Routes are tried in the order they were added; the first whose path and method fit wins.
/// A `HEAD` request uses the `GET` route when there is no `HEAD` route (the server sends no body).
public struct Router: HTTPResponder {
    /// A route handler. A thrown error becomes a `500` problem; the error itself goes to the log only.
    /// `CancellationError` (the server gave up on the request) becomes `503` without a log entry.
    public typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let options: RouteOptions
        let handler: Handler
    }

    private enum Resolution {
        case found(Route, captures: [String: [Substring]])
        case notFound
        case methodNotAllowed(allow: [HTTPMethod])
    }

    private var routes: [Route] = []
    private var middleware: [any HTTPMiddleware] = []
    /// The longest decoded path parameter accepted; longer ones get `400` before reaching a handler.
    public var maxParameterLength: Int
    private let logger: Logger

    /// Creates an empty router.
    public init(maxParameterLength: Int = 256, logger: Logger = Logger(label: "http.router")) {
        self.maxParameterLength = maxParameterLength
        self.logger = logger
    }

    /// Adds a route. `:name` segments become `request.parameters["name"]`; a final `*` captures the rest
    /// of the path as `request.parameters["*"]`.
    public mutating func on(
        _ method: HTTPMethod,
        _ path: String,
        options: RouteOptions = RouteOptions(),
        handler: @escaping Handler
    ) {
        routes.append(Route(method: method, pattern: RoutePattern(path), options: options, handler: handler))
    }

    /// Adds a `GET` route.
    public mutating func get(_ path: String, options: RouteOptions = RouteOptions(), handler: @escaping Handler) {
        on(.get, path, options: options, handler: handler)
    }

    /// Adds a `POST` route.
    public mutating func post(_ path: String, options: RouteOptions = RouteOptions(), handler: @escaping Handler) {
        on(.post, path, options: options, handler: handler)
    }

    /// Adds a `PUT` route.
    public mutating func put(_ path: String, options: RouteOptions = RouteOptions(), handler: @escaping Handler) {
        on(.put, path, options: options, handler: handler)
    }

    /// Adds a `PATCH` route.
    public mutating func patch(_ path: String, options: RouteOptions = RouteOptions(), handler: @escaping Handler) {
        on(.patch, path, options: options, handler: handler)
    }

    /// Adds a `DELETE` route.
    public mutating func delete(_ path: String, options: RouteOptions = RouteOptions(), handler: @escaping Handler) {
        on(.delete, path, options: options, handler: handler)
    }

    /// Wraps every request this router handles; the first added is the outermost.
    public mutating func add(middleware: some HTTPMiddleware) {
        self.middleware.append(middleware)
    }

    /// The matched route's body limit, so the server can refuse an oversized body before buffering it.
    public func plan(for head: HTTPRequest) -> HTTPRequestPlan {
        let limit: Int? = if case .found(let route, _) = resolve(head) { route.options.maxBodySize } else { nil }
        return HTTPRequestPlan(maxBodySize: limit) { request in await respond(to: request, throughMiddlewareFrom: 0) }
    }

    private func respond(to request: HTTPRequest, throughMiddlewareFrom index: Int) async -> HTTPResponse {
        guard index < middleware.count else { return await dispatch(request) }
        return await middleware[index].respond(to: request) { request in
            await respond(to: request, throughMiddlewareFrom: index + 1)
        }
    }

    private func dispatch(_ request: HTTPRequest) async -> HTTPResponse {
        switch resolve(request) {
        case .notFound:
            return .problem(status: .notFound, detail: "No resource at \(request.path).")
        case .methodNotAllowed(let allow):
            let allowed = allow.map(\.rawValue).joined(separator: ", ")
            return .problem(
                status: .methodNotAllowed,
                detail: "\(request.method) is not allowed here; use \(allowed).",
                headers: ["Allow": allowed]
            )
        case .found(let route, let captures):
            var request = request
            switch decodeParameters(captures) {
            case .failure(let invalid):
                return .problem(status: .badRequest, detail: "Path parameter '\(invalid.name)' \(invalid.reason).")
            case .success(let parameters):
                request.parameters = parameters
            }
            do {
                return try await route.handler(request)
            } catch is CancellationError {
                // The server gave up on this request (time limit or shutdown) and answers it itself.
                return .problem(status: .serviceUnavailable)
            } catch {
                logger.error(
                    "handler failed",
                    ["method": request.method.rawValue, "route": route.pattern.description, "error": "\(error)"]
                )
                return .problem(status: .internalServerError)
            }
        }
    }

    private func resolve(_ request: HTTPRequest) -> Resolution {
        let segments = request.rawPath.split(separator: "/", omittingEmptySubsequences: true)
        let matches = routes.compactMap { route in route.pattern.match(segments).map { (route, $0) } }
        guard !matches.isEmpty else { return .notFound }
        let wanted: [HTTPMethod] = request.method == .head ? [.head, .get] : [request.method]
        for method in wanted {
            if let (route, captures) = matches.first(where: { $0.0.method == method }) {
                return .found(route, captures: captures)
            }
        }
        var allow: [HTTPMethod] = []
        for (route, _) in matches where !allow.contains(route.method) {
            allow.append(route.method)
            if route.method == .get, !allow.contains(.head) { allow.append(.head) }
        }
        return .methodNotAllowed(allow: allow)
    }

    /// Percent-decodes captured segments and refuses values that could escape a path or a key space:
    /// undecodable bytes, NUL, `/` (from `%2F`), `.` or `..` as a whole segment, or more than
    /// `maxParameterLength` characters.
    private func decodeParameters(_ captures: [String: [Substring]]) -> Result<[String: String], InvalidParameter> {
        var parameters: [String: String] = [:]
        for (name, rawSegments) in captures {
            var decodedSegments: [String] = []
            for raw in rawSegments {
                guard let decoded = String(raw).removingPercentEncoding else {
                    return .failure(InvalidParameter(name: name, reason: "is not valid percent-encoded UTF-8"))
                }
                if decoded.contains("\0") { return .failure(InvalidParameter(name: name, reason: "contains a NUL character")) }
                if decoded.contains("/") { return .failure(InvalidParameter(name: name, reason: "contains an encoded '/'")) }
                if decoded == "." || decoded == ".." { return .failure(InvalidParameter(name: name, reason: "is a relative path segment")) }
                decodedSegments.append(decoded)
            }
            let value = decodedSegments.joined(separator: "/")
            guard value.count <= maxParameterLength else {
                return .failure(InvalidParameter(name: name, reason: "is longer than \(maxParameterLength) characters"))
            }
            parameters[name] = value
        }
        return .success(parameters)
    }

    private struct InvalidParameter: Error {
        let name: String
        let reason: String
    }
}
