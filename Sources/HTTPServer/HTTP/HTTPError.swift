/// An error a handler throws to answer with a problem response of its choosing: the router turns it
/// into `application/problem+json` with this status and detail.
public struct HTTPError: Error, Sendable, Equatable {
    /// The status to answer with.
    public let status: HTTPStatus
    /// What the client should fix, in words it can act on.
    public let detail: String
    /// Extra response headers, e.g. `WWW-Authenticate`.
    public let headers: HTTPHeaders

    /// Creates an error.
    public init(_ status: HTTPStatus, _ detail: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    /// The problem response it stands for.
    public var response: HTTPResponse { .problem(status: status, detail: detail, headers: headers) }
}
