/// Routes that share a path prefix, an auth rule and middleware: `/wallet/v1` (Wallet's device
/// protocol), `/api/v1` (the admin API), the operations endpoints. A route that names its own auth
/// keeps it.
public struct RouteGroup: Sendable {
    /// Prepended to every route's path.
    public let prefix: String
    /// The auth of routes that name none.
    public let auth: RouteAuth
    /// Middleware around each route of the group, inside the router's own.
    public let middleware: [any HTTPMiddleware]
    /// The routes, with paths relative to the prefix.
    public private(set) var routes: [Route] = []

    /// Creates an empty group.
    public init(_ prefix: String = "", auth: RouteAuth = .none, middleware: [any HTTPMiddleware] = []) {
        self.prefix = prefix
        self.auth = auth
        self.middleware = middleware
    }

    /// Adds a route to the group.
    public mutating func add(_ route: Route) {
        var route = route.prefixed(by: prefix)
        route.auth = route.auth ?? auth
        route.middleware = middleware + route.middleware
        routes.append(route)
    }

    /// Adds routes to the group.
    public mutating func add(_ routes: [Route]) {
        for route in routes { add(route) }
    }
}
