/// Anything that turns a request into a response: a router, a single handler, a middleware chain.
///
/// It cannot throw: a responder maps its own errors to statuses, so the server never has to guess.
public protocol HTTPResponder: Sendable {
    /// Produces the response for a fully received request.
    func respond(to request: HTTPRequest) async -> HTTPResponse

    /// The largest body this request may carry, decided from its head (method, path, headers) before
    /// any body byte is buffered; `nil` means the server's default. Larger bodies get `413` at once.
    func maxBodySize(for head: HTTPRequest) -> Int?
}

extension HTTPResponder {
    /// Uses the server's default body limit for every request.
    public func maxBodySize(for head: HTTPRequest) -> Int? { nil }
}
