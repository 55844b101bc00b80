/// A response status: the code that clients act on and the reason phrase used as a problem title.
///
/// A struct rather than an enum so any code can be sent, while the statuses this project uses have names.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code.
    public var code: Int
    /// The standard reason phrase (RFC 9110 §15), or "Status N" for a code without one.
    public var reasonPhrase: String

    /// Creates a status with an explicit reason phrase.
    public init(code: Int, reasonPhrase: String) {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    /// Creates a status from a code, using the standard reason phrase when there is one.
    public init(code: Int) {
        self.init(code: code, reasonPhrase: Self.standardReasons[code] ?? "Status \(code)")
    }

    /// `200 OK`.
    public static let ok = HTTPStatus(code: 200)
    /// `201 Created`.
    public static let created = HTTPStatus(code: 201)
    /// `202 Accepted`.
    public static let accepted = HTTPStatus(code: 202)
    public static let seeOther = HTTPStatus(code: 303)
    /// `204 No Content`.
    public static let noContent = HTTPStatus(code: 204)
    /// `304 Not Modified`.
    public static let notModified = HTTPStatus(code: 304)
    /// `400 Bad Request`.
    public static let badRequest = HTTPStatus(code: 400)
    /// `401 Unauthorized`.
    public static let unauthorized = HTTPStatus(code: 401)
    /// `403 Forbidden`.
    public static let forbidden = HTTPStatus(code: 403)
    /// `404 Not Found`.
    public static let notFound = HTTPStatus(code: 404)
    /// `405 Method Not Allowed`; send it with an `Allow` header.
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// `409 Conflict`.
    public static let conflict = HTTPStatus(code: 409)
    /// `410 Gone`.
    public static let gone = HTTPStatus(code: 410)
    /// `412 Precondition Failed`.
    public static let preconditionFailed = HTTPStatus(code: 412)
    /// `413 Content Too Large`.
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// `415 Unsupported Media Type`.
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// `422 Unprocessable Content`.
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// `429 Too Many Requests`.
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// `500 Internal Server Error`.
    public static let internalServerError = HTTPStatus(code: 500)
    /// `503 Service Unavailable`.
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// `507 Insufficient Storage`: the server's disk is full.
    public static let insufficientStorage = HTTPStatus(code: 507)

    /// `200 OK`, for logs.
    public var description: String { "\(code) \(reasonPhrase)" }

    private static let standardReasons: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 422: "Unprocessable Content",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 507: "Insufficient Storage",
    ]
}
