import Foundation
import PasswrightLogging

/// Keeps a service's routes and answers each request with the one that fits, resolved once at the
/// request's head; answers what no handler should see itself: unknown paths (`404`), known paths with
/// another method (`405` with `Allow`), unsafe path parameters (`400`), refused auth.
///
/// ```swift
/// var router = Router()
/// router.add(Route(.get, "/wallet/v1/passes/:passType/:serial", operationID: "latestPass") { request, context in
///     .bytes(archive, contentType: "application/vnd.apple.pkpass")
/// })
/// ```
/// Routes are tried in the order they were added; the first whose path and method fit wins.
/// A `HEAD` request uses the `GET` route when there is no `HEAD` route (the server sends no body).
public struct Router: HTTPResponder {
    /// Turns an error a handler threw (other than ``HTTPError`` and `CancellationError`) into a response.
    public typealias ErrorMapper = @Sendable (any Error, RequestContext) -> HTTPResponse

    private enum Resolution {
        case found(Route, parameters: PathParameters)
        case refused(HTTPResponse)
    }

    /// Every route, in the order they are tried: what the OpenAPI document is generated from.
    public private(set) var routes: [Route] = []
    /// Which routes can match a path, by its first segment, so a request tries a handful of routes
    /// instead of all of them: for each first literal, the routes that start with it merged with those
    /// that start with a parameter or a tail (or have no segment); as indices into `routes`, ascending.
    private var routesByFirstLiteral: [String: [Int]] = [:]
    private var routesWithoutFirstLiteral: [Int] = []
    private var middleware: [any HTTPMiddleware] = []
    /// The longest decoded path parameter accepted; longer ones get `400` before reaching a handler.
    public var maxParameterLength: Int
    private let logger: Logger
    private let errorMapper: ErrorMapper

    /// Creates an empty router. `errors` maps what handlers throw; by default any error is a `500`
    /// whose cause goes to the log only.
    public init(maxParameterLength: Int = 256, logger: Logger = Logger(label: "http.router"), errors: ErrorMapper? = nil) {
        self.maxParameterLength = maxParameterLength
        self.logger = logger
        self.errorMapper = errors ?? { error, context in
            context.logger.error(
                "handler failed",
                ["method": context.route?.method.rawValue ?? "", "route": context.routeName, "error": "\(error)"])
            return .problem(status: .internalServerError)
        }
    }

    /// Adds a route.
    public mutating func add(_ route: Route) {
        if case .literal(let first) = route.pattern.segments.first {
            routesByFirstLiteral[first, default: routesWithoutFirstLiteral].append(routes.count)
        } else {
            routesWithoutFirstLiteral.append(routes.count)
            for first in routesByFirstLiteral.keys { routesByFirstLiteral[first]?.append(routes.count) }
        }
        routes.append(route)
    }

    /// Adds every route of a group, with its prefix, auth and middleware.
    public mutating func add(_ group: RouteGroup) {
        for route in group.routes { add(route) }
    }

    /// Adds an undocumented route: `:name` segments become `context.parameters["name"]`; a final `*`
    /// captures the rest of the path as `context.parameters["*"]`.
    public mutating func on(_ method: HTTPMethod, _ path: String, maxBodySize: Int? = nil, handler: @escaping Route.Handler) {
        add(Route(method, path, maxBodySize: maxBodySize, handler: handler))
    }

    /// Adds an undocumented `GET` route.
    public mutating func get(_ path: String, maxBodySize: Int? = nil, handler: @escaping Route.Handler) {
        on(.get, path, maxBodySize: maxBodySize, handler: handler)
    }

    /// Adds an undocumented `POST` route.
    public mutating func post(_ path: String, maxBodySize: Int? = nil, handler: @escaping Route.Handler) {
        on(.post, path, maxBodySize: maxBodySize, handler: handler)
    }

    /// Adds an undocumented `PUT` route.
    public mutating func put(_ path: String, maxBodySize: Int? = nil, handler: @escaping Route.Handler) {
        on(.put, path, maxBodySize: maxBodySize, handler: handler)
    }

    /// Adds an undocumented `PATCH` route.
    public mutating func patch(_ path: String, maxBodySize: Int? = nil, handler: @escaping Route.Handler) {
        on(.patch, path, maxBodySize: maxBodySize, handler: handler)
    }

    /// Adds an undocumented `DELETE` route.
    public mutating func delete(_ path: String, maxBodySize: Int? = nil, handler: @escaping Route.Handler) {
        on(.delete, path, maxBodySize: maxBodySize, handler: handler)
    }

    /// Wraps every request this router handles, matched or not; the first added is the outermost.
    public mutating func add(middleware: some HTTPMiddleware) {
        self.middleware.append(middleware)
    }

    /// Resolves the route once, from the head: its body limit now, its handler when the body is in.
    public func plan(for head: HTTPRequest) -> HTTPRequestPlan {
        let resolution = resolve(head)
        switch resolution {
        case .found(let route, let parameters):
            let context = RequestContext(
                route: MatchedRoute(method: route.method, path: route.path, operationID: route.operationID),
                parameters: parameters, logger: logger)
            if route.requestBody?.spooled == true, let refusal = route.auth?.headCheck?(head) {
                // An upload that will be refused is not written to disk first.
                return HTTPRequestPlan(answerAtHead: refusal) { _ in refusal }
            }
            return HTTPRequestPlan(
                maxBodySize: route.maxBodySize, start: route.start, decodesForm: route.requestBody?.isForm ?? false,
                spoolsBody: route.requestBody?.spooled ?? false
            ) { request in
                await through(middleware[...], request, context) { request in await run(route, request, context) }
            }
        case .refused(let response):
            let context = RequestContext(route: nil, logger: logger)
            return HTTPRequestPlan { request in
                await through(middleware[...], request, context) { _ in response }
            }
        }
    }

    private func through(
        _ chain: ArraySlice<any HTTPMiddleware>, _ request: HTTPRequest, _ context: RequestContext,
        _ last: (HTTPRequest) async -> HTTPResponse
    ) async -> HTTPResponse {
        guard let first = chain.first else { return await last(request) }
        return await first.respond(to: request, context: context) { request in
            await through(chain.dropFirst(), request, context, last)
        }
    }

    /// The route's auth, its body's media type, its own middleware, then its handler; whatever any of
    /// them throws is mapped to a response in one place.
    private func run(_ route: Route, _ request: HTTPRequest, _ context: RequestContext) async -> HTTPResponse {
        var context = context
        do {
            if let check = route.auth?.check {
                switch try await check(request, context.parameters) {
                case .refused(let response): return response
                case .allowed(let identity): context.identity = identity
                }
            }
            if let refusal = route.requestBody?.refusal(for: request) { return refusal }
        } catch {
            return response(to: error, context)
        }
        return await through(route.middleware[...], request, context) { [context] request in
            do {
                return try await route.handler(request, context)
            } catch {
                return response(to: error, context)
            }
        }
    }

    /// An ``HTTPError`` as its problem, a cancellation as `503`, anything else through the error mapper.
    private func response(to error: any Error, _ context: RequestContext) -> HTTPResponse {
        switch error {
        case let error as HTTPError:
            return error.response
        case is CancellationError:
            // The server gave up on this request (time limit or shutdown) and answers it itself.
            return .problem(status: .serviceUnavailable)
        default:
            return errorMapper(error, context)
        }
    }

    /// The first route whose path fits and whose method is the request's (for `HEAD`, a `HEAD` route,
    /// else a `GET` one). A request tries only the routes of its first segment, and allocates for the
    /// one that fits, not for every route it tries.
    private func resolve(_ request: HTTPRequest) -> Resolution {
        let segments = Self.segments(of: request.rawPath)
        let candidates = candidates(firstSegment: segments.first)
        var pathFits = false
        var chosen: Int?
        var getForHead: Int?
        for index in candidates where routes[index].pattern.fits(segments) {
            pathFits = true
            let method = routes[index].method
            if method == request.method {
                chosen = index
                break
            }
            if request.method == .head, method == .get, getForHead == nil { getForHead = index }
        }
        guard pathFits else {
            return .refused(.problem(status: .notFound, detail: "No resource at \(request.path)."))
        }
        if let index = chosen ?? getForHead {
            let route = routes[index]
            switch decodeParameters(route.pattern.captures(segments)) {
            case .failure(let invalid):
                return .refused(.problem(status: .badRequest, detail: "Path parameter '\(invalid.name)' \(invalid.reason)."))
            case .success(let parameters):
                return .found(route, parameters: parameters)
            }
        }
        var allow: [HTTPMethod] = []
        for index in candidates where routes[index].pattern.fits(segments) && !allow.contains(routes[index].method) {
            allow.append(routes[index].method)
            if routes[index].method == .get, !allow.contains(.head) { allow.append(.head) }
        }
        let allowed = allow.map(\.rawValue).joined(separator: ", ")
        return .refused(.problem(
            status: .methodNotAllowed, detail: "\(request.method) is not allowed here; use \(allowed).",
            headers: ["Allow": allowed]))
    }

    /// The non-empty segments between `/`s, found on the bytes (splitting a `String` on a `Character`
    /// walks grapheme clusters, and a path's `/` is always the ASCII byte), in one array.
    private static func segments(of rawPath: String) -> [Substring] {
        var segments: [Substring] = []
        let utf8 = rawPath.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                if start != index { segments.append(rawPath[start..<index]) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start != utf8.endIndex { segments.append(rawPath[start..<utf8.endIndex]) }
        return segments
    }

    /// The indices of the routes that may match a path starting with `firstSegment`, in the order
    /// they were added.
    private func candidates(firstSegment: Substring?) -> [Int] {
        firstSegment.flatMap { PercentDecoding.decode($0) }.flatMap { routesByFirstLiteral[$0] } ?? routesWithoutFirstLiteral
    }

    /// Percent-decodes captured segments and refuses values that could escape a path or a key space:
    /// undecodable bytes, NUL, `/` (from `%2F`), `.` or `..` as a whole segment, or more than
    /// `maxParameterLength` characters.
    private func decodeParameters(_ captures: [(name: String, raw: ArraySlice<Substring>)]) -> Result<PathParameters, InvalidParameter> {
        var parameters: [String: String] = [:]
        parameters.reserveCapacity(captures.count)
        for (name, rawSegments) in captures {
            var value = ""
            for (index, raw) in rawSegments.enumerated() {
                guard let decoded = PercentDecoding.decode(raw) else {
                    return .failure(InvalidParameter(name: name, reason: "is not valid percent-encoded UTF-8"))
                }
                for byte in decoded.utf8 {
                    if byte == 0 { return .failure(InvalidParameter(name: name, reason: "contains a NUL character")) }
                    if byte == UInt8(ascii: "/") { return .failure(InvalidParameter(name: name, reason: "contains an encoded '/'")) }
                }
                if decoded == "." || decoded == ".." { return .failure(InvalidParameter(name: name, reason: "is a relative path segment")) }
                if index == 0 {
                    value = decoded
                } else {
                    value += "/" + decoded
                }
            }
            // Characters are never more than bytes: count graphemes only when the bytes are over.
            guard value.utf8.count <= maxParameterLength || value.count <= maxParameterLength else {
                return .failure(InvalidParameter(name: name, reason: "is longer than \(maxParameterLength) characters"))
            }
            parameters[name] = value
        }
        return .success(PathParameters(parameters))
    }

    private struct InvalidParameter: Error {
        let name: String
        let reason: String
    }
}
