/// How a route authenticates its caller: the OpenAPI security scheme that names it, and the check the
/// router runs before the handler. A check of `nil` means the handler checks itself, as Wallet's
/// `ApplePass` token must be compared with the pass the handler loads.
public struct RouteAuth: Sendable {
    /// The security scheme in the OpenAPI document's components, or `nil` for an open route.
    public let scheme: String?
    /// The description of the `401` this auth answers, for the document.
    public let refusal: String
    /// Returns the refusal for a request that may not call the route, `nil` to let it through.
    public let check: (@Sendable (HTTPRequest) -> HTTPResponse?)?

    /// Creates an auth rule.
    public init(scheme: String?, refusal: String, check: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil) {
        self.scheme = scheme
        self.refusal = refusal
        self.check = check
    }

    /// Anyone may call the route.
    public static let none = RouteAuth(scheme: nil, refusal: "")
}
