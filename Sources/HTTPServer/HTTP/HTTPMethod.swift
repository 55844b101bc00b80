/// The method of a request.
///
/// The common methods are cases so routes and switches read naturally; anything else a client sends is
/// kept verbatim in `other` rather than rejected, so a router can answer it with 405 and `Allow`.
public enum HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// A method routes are commonly registered for.
    case get, head, post, put, patch, delete, options
    /// A method without a case of its own, spelled exactly as the client sent it.
    case other(String)

    /// Parses a method token; HTTP methods are case-sensitive (RFC 9110 §9.1), so `get` is `other("get")`.
    public init(rawValue: String) {
        switch rawValue {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        default: self = .other(rawValue)
        }
    }

    /// The token as it goes on the wire, e.g. in an `Allow` header.
    public var rawValue: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .other(let token): token
        }
    }

    /// The wire token, so logs show `GET` rather than `get`.
    public var description: String { rawValue }
}
