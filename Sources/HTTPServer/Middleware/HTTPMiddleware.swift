/// A step wrapped around every request a router handles: logging, metrics, authentication.
///
/// It sees the request before routing and the response after, including the router's own 404/405/400,
/// and may answer without calling `next` (e.g. `401`).
public protocol HTTPMiddleware: Sendable {
    /// Handles a request, usually by calling `next` and adjusting or observing its response.
    func respond(to request: HTTPRequest, next: (HTTPRequest) async -> HTTPResponse) async -> HTTPResponse
}
