/// Anything that turns a request into a response: a router, a single handler, a middleware chain.
///
/// The server asks once, at the request's head, and keeps the answer for the body: the router
/// resolves the route a single time, and the body limit comes from the same resolution that later
/// answers. A responder cannot throw: it maps its own errors to statuses, so the server never has
/// to guess.
public protocol HTTPResponder: Sendable {
    /// Decides from the head (method, target, headers) how the request will be answered, before any
    /// body byte is buffered.
    func plan(for head: HTTPRequest) -> HTTPRequestPlan
}

extension HTTPResponder {
    /// Plans and answers a fully received request in one step: how in-process tests and fuzz targets
    /// drive a responder without a socket.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        await plan(for: request).respond(request)
    }
}

/// What a responder decided from a request's head.
public struct HTTPRequestPlan: Sendable {
    /// The largest body this request may carry; `nil` means the server's default. A larger body gets
    /// `413` before it is buffered.
    public var maxBodySize: Int?
    /// Answers the request once its body is in.
    public let respond: @Sendable (HTTPRequest) async -> HTTPResponse

    /// Creates a plan.
    public init(maxBodySize: Int? = nil, respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.maxBodySize = maxBodySize
        self.respond = respond
    }
}
