/// How a route authenticates its caller: the OpenAPI security scheme that names it, and the check the
/// router runs before the handler, so no handler checks credentials by hand.
///
/// A check may be `async` and see the path parameters: Wallet's `ApplePass` token belongs to the pass
/// the path names, so its check loads that pass and hands it to the handler as the context's
/// ``RequestContext/identity``, which then needs no second lookup.
public struct RouteAuth: Sendable {
    /// What a check decided.
    public enum Outcome: Sendable {
        /// The caller may go on; `identity` (if any) is what the check resolved, for the handler.
        case allowed(identity: (any Sendable)? = nil)
        /// The caller may not; the response is sent instead of calling the handler.
        case refused(HTTPResponse)
    }

    /// The check of a request, with its route's checked path parameters. A thrown error is answered
    /// as a handler's would be (an ``HTTPError`` as its problem, anything else through the error mapper).
    public typealias Check = @Sendable (HTTPRequest, PathParameters) async throws -> Outcome

    /// The security scheme in the OpenAPI document's components, or `nil` for an open route.
    public let scheme: String?
    /// The description of the `401` this auth answers, for the document.
    public let refusal: String
    /// The scopes a caller needs, listed in the operation's `security` requirement (a caller with a
    /// credential but without them gets `403`, documented with the route).
    public let scopes: [String]
    /// Decides whether a request may call the route; `nil` lets every request through.
    public let check: Check?
    /// The check (or, for a resolving check, the part of it) that needs only the request's head: the
    /// router runs it before a spooled body (``RouteBody/spooled``) is received, so no stranger can
    /// fill the disk.
    let headCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)?

    /// Creates an auth rule whose check needs only the request: it returns the refusal, or `nil` to
    /// let the request through.
    public init(scheme: String?, refusal: String, scopes: [String] = [], check: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil) {
        self.scheme = scheme
        self.refusal = refusal
        self.scopes = scopes
        self.headCheck = check
        self.check = check.map { check in
            { @Sendable request, _ in check(request).map(Outcome.refused) ?? .allowed() }
        }
    }

    /// Creates an auth rule whose check resolves who or what is calling, e.g. the pass a token
    /// belongs to, from the request and the path.
    public init(
        scheme: String?, refusal: String, scopes: [String] = [], headCheck: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
        resolving check: @escaping Check
    ) {
        self.scheme = scheme
        self.refusal = refusal
        self.scopes = scopes
        self.check = check
        self.headCheck = headCheck
    }

    /// Anyone may call the route.
    public static let none = RouteAuth(scheme: nil, refusal: "")
}
