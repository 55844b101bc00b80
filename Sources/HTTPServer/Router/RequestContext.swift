import PasswrightLogging

/// What the router learned about a request at its head, handed to middleware and the handler: the
/// matched route (for metrics and logs), its checked path parameters, and the logger.
public struct RequestContext: Sendable {
    /// The route that matched, or `nil` for a request no route answers (404, 405, a bad parameter).
    public let route: MatchedRoute?
    /// The path parameters, percent-decoded and checked.
    public let parameters: PathParameters
    /// The logger for this request.
    public let logger: Logger
    /// What the route's auth resolved (e.g. the pass a device token belongs to), `nil` before the
    /// auth ran or when it resolves nothing.
    public internal(set) var identity: (any Sendable)?

    /// Creates a context; the router makes these, tests of a handler may too.
    public init(route: MatchedRoute?, parameters: PathParameters = PathParameters(), logger: Logger) {
        self.route = route
        self.parameters = parameters
        self.logger = logger
    }

    /// The route's auth's identity as the type the handler expects. A route whose auth resolves none
    /// (a route added without that auth) is refused with `401` rather than answered unauthenticated.
    public func identity<Identity: Sendable>(as type: Identity.Type) throws(HTTPError) -> Identity {
        guard let identity = identity as? Identity else {
            throw HTTPError(.unauthorized, "this route's auth resolved no \(Identity.self)")
        }
        return identity
    }

    /// The route's pattern as metrics and logs name it (never the raw path, which carries device
    /// identifiers and serial numbers), or `unmatched`.
    public var routeName: String { route?.path ?? "unmatched" }
}

/// The parts of a route a middleware or handler may need to know.
public struct MatchedRoute: Sendable, Equatable {
    /// The method of the route (`GET` for a `HEAD` answered by a `GET` route).
    public let method: HTTPMethod
    /// The route's path pattern, e.g. `/wallet/v1/passes/:passType/:serial`.
    public let path: String
    /// The OpenAPI operation id, if the route has one.
    public let operationID: String?

    /// Creates a description.
    public init(method: HTTPMethod, path: String, operationID: String?) {
        self.method = method
        self.path = path
        self.operationID = operationID
    }
}
