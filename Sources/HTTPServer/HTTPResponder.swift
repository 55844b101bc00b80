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
    /// Where the responder starts.
    public var start: ResponderStart
    /// Whether the server decodes a form body (URL-encoded or multipart) for ``HTTPRequest/form()``
    /// once it is in, with libmicrohttpd's own form parser, which needs the connection.
    public var decodesForm: Bool
    /// Whether the server writes the body to a temporary file (``HTTPRequest/spooledBody``) instead of
    /// memory, for uploads too large to hold; such a body's arrival also keeps its connection's receive
    /// deadline from running out while it makes progress.
    public var spoolsBody: Bool
    /// The answer the server sends from the head, without reading the body (and closing the
    /// connection after it): a refused upload is not received first.
    public var answerAtHead: HTTPResponse?
    /// Answers the request once its body is in.
    public let respond: @Sendable (HTTPRequest) async -> HTTPResponse

    /// Creates a plan.
    public init(maxBodySize: Int? = nil, start: ResponderStart = .onDaemonThread, decodesForm: Bool = false, spoolsBody: Bool = false,
                answerAtHead: HTTPResponse? = nil, respond: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.maxBodySize = maxBodySize
        self.start = start
        self.decodesForm = decodesForm
        self.spoolsBody = spoolsBody
        self.answerAtHead = answerAtHead
        self.respond = respond
    }
}

/// Where a responder starts running.
public enum ResponderStart: Sendable {
    /// On the daemon thread that read the request, until it first waits: a responder that answers at
    /// once (a database read, a cached archive) costs no thread switch. The default.
    case onDaemonThread
    /// On the Swift pool: for responders that compute for long before they first wait (drawing a
    /// picture, resizing images, checking an uploaded template), which would hold up every other
    /// connection of their daemon thread meanwhile.
    case inPool
}
