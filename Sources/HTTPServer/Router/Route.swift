/// One route, in one value: what it matches, who may call it, how large a body it takes, how the
/// OpenAPI document describes it, and the handler. The router keeps the list, so the document, the
/// body limit at the head and the dispatch can never disagree about a route.
///
/// ```swift
/// Route(.get, "/api/v1/passes/:passType/:serial", operationID: "getPass", summary: "A pass and its state",
///       responses: [.json(.ok, "OK", schema: "PassDetails"), .problem(.notFound, "No such pass")]) { request, context in
///     let serial = try context.parameters.require("serial")
///     …
/// }
/// ```
public struct Route: Sendable {
    /// Answers a request that matched the route. A thrown ``HTTPError`` becomes its problem response;
    /// any other error goes through the router's error mapper (a `500` by default, details logged).
    public typealias Handler = @Sendable (HTTPRequest, RequestContext) async throws -> HTTPResponse

    /// The method it answers (`GET` routes also answer `HEAD`).
    public let method: HTTPMethod
    /// The path pattern: `:name` segments are parameters, a final `*` takes the rest of the path.
    public private(set) var path: String
    /// A stable name for the operation in the OpenAPI document; `nil` for undocumented routes.
    public var operationID: String?
    /// One line saying what the route does.
    public var summary: String
    /// Who may call it; `nil` takes the group's (or none outside a group).
    public var auth: RouteAuth?
    /// The largest body accepted, in bytes; `nil` uses the server's default.
    public var maxBodySize: Int?
    /// Where the handler starts: ``ResponderStart/inPool`` for one that computes for long before it
    /// first waits.
    public var start: ResponderStart
    /// Query and header parameters (path parameters come from the pattern).
    public var parameters: [RouteParameter]
    /// The body it expects, if any.
    public var requestBody: RouteBody?
    /// What it answers, by status. The router's own answers (`400` for a bad path parameter, `401`
    /// from ``auth``, `413` for a route with a body, `415` for a body of another media type than
    /// ``requestBody``'s) are added to the document without being listed.
    public var responses: [RouteResponse]
    /// Middleware around this route only (a group's), inside the router's own.
    public var middleware: [any HTTPMiddleware]
    /// The handler.
    public let handler: Handler
    private(set) var pattern: RoutePattern

    /// Creates a route.
    public init(
        _ method: HTTPMethod, _ path: String, operationID: String? = nil, summary: String = "", auth: RouteAuth? = nil,
        maxBodySize: Int? = nil, start: ResponderStart = .onDaemonThread, parameters: [RouteParameter] = [],
        requestBody: RouteBody? = nil, responses: [RouteResponse] = [], middleware: [any HTTPMiddleware] = [],
        handler: @escaping Handler
    ) {
        self.method = method
        self.path = path
        self.operationID = operationID
        self.summary = summary
        self.auth = auth
        self.maxBodySize = maxBodySize
        self.start = start
        self.parameters = parameters
        self.requestBody = requestBody
        self.responses = responses
        self.middleware = middleware
        self.handler = handler
        self.pattern = RoutePattern(path)
    }

    /// The names of the path parameters, in order (`*` for a tail).
    public var pathParameters: [String] { pattern.parameterNames }

    /// The same route under a prefix, e.g. a group's `/api/v1`. A copy with only the path changed, so a
    /// property added to `Route` later cannot be dropped here (rebuilding the route once lost `start`,
    /// and every grouped `.inPool` route ran on a daemon thread).
    func prefixed(by prefix: String) -> Route {
        var route = self
        route.path = prefix + path
        route.pattern = RoutePattern(route.path)
        return route
    }
}
