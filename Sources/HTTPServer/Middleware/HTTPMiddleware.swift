/// A step wrapped around requests: logging, metrics, authentication.
///
/// Added to the router, it sees every request, including the router's own 404/405/400; added to a
/// group, only that group's routes. It may answer without calling `next` (e.g. `401`). The context
/// says which route matched, resolved once at the request's head.
public protocol HTTPMiddleware: Sendable {
    /// Handles a request, usually by calling `next` and adjusting or observing its response.
    func respond(
        to request: HTTPRequest, context: RequestContext, next: (HTTPRequest) async -> HTTPResponse
    ) async -> HTTPResponse
}
