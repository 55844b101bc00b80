import Foundation

/// A complete response: status, headers and body, built by a handler and sent by the server in one piece.
///
/// `Content-Length` is computed by the server from the body; a `Content-Length` header set here is ignored.
public struct HTTPResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPStatus
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body bytes (empty for 204/304 and for HEAD, where the server sends none).
    public var body: Data

    /// Creates a response from its parts.
    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response without a body, e.g. `204 No Content` or `304 Not Modified`.
    public static func empty(status: HTTPStatus = .noContent, headers: HTTPHeaders = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers)
    }

    /// Bytes of a given media type, e.g. a `.pkpass` archive as `application/vnd.apple.pkpass`.
    public static func bytes(_ body: Data, contentType: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: body)
    }

    /// JSON already encoded, sent as `application/json`.
    public static func json(_ body: Data, status: HTTPStatus = .ok) -> HTTPResponse {
        bytes(body, contentType: "application/json", status: status)
    }

    /// A value encoded as JSON; throws the encoder's error so the handler (or the router, as a 500) maps it.
    public static func json<Value: Encodable>(
        _ value: Value,
        status: HTTPStatus = .ok,
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> HTTPResponse {
        json(try encoder.encode(value), status: status)
    }

    /// An RFC 9457 problem (`application/problem+json`), the one error body shape every endpoint uses.
    ///
    /// `title` defaults to the status's reason phrase, as RFC 9457 asks when `type` is `about:blank`.
    public static func problem(
        status: HTTPStatus,
        title: String? = nil,
        detail: String? = nil,
        type: String = "about:blank",
        headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        let problem = HTTPProblem(type: type, title: title ?? status.reasonPhrase, status: status.code, detail: detail)
        var response = HTTPResponse(status: status, headers: headers, body: problem.encoded())
        response.headers["Content-Type"] = "application/problem+json"
        return response
    }
}
