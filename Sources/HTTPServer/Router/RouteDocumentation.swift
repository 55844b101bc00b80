/// A body a route takes or answers with, named by its media type and the schema in the document's
/// components, so every schema is written once, in the components resource.
///
/// As a route's request body it is also a rule: the router answers `415 Unsupported Media Type`,
/// naming ``contentType``, to a request whose `Content-Type` is none of ``accepted``, before the
/// handler runs; and a form body is decoded for the handler (``HTTPRequest/form()``).
public struct RouteBody: Sendable, Equatable {
    /// The media type, e.g. `application/json`.
    public let contentType: String
    /// The schema's name under `#/components/schemas`.
    public let schema: String
    /// Whether a request must carry it; a route whose body has defaults (a preview's record) takes none.
    public let required: Bool
    /// Other media types a request may send it as, e.g. `application/x-zip-compressed`, which some
    /// archivers label a zip with.
    public let alternatives: [String]
    /// Whether the router refuses a request whose `Content-Type` is another with `415`; off where the
    /// clients are not held to one (Wallet's devices, whose protocol does not promise a `Content-Type`).
    public let checksContentType: Bool
    /// Whether the server writes the body to a temporary file instead of memory
    /// (``HTTPRequest/spooledBody``): for uploads of hundreds of megabytes.
    public let spooled: Bool

    /// Creates a body description.
    public init(
        _ contentType: String, schema: String, required: Bool = true, alternatives: [String] = [], checksContentType: Bool = true,
        spooled: Bool = false
    ) {
        self.contentType = contentType
        self.schema = schema
        self.required = required
        self.alternatives = alternatives
        self.checksContentType = checksContentType
        self.spooled = spooled
    }

    /// A JSON body with the named schema.
    public static func json(_ schema: String) -> RouteBody { RouteBody("application/json", schema: schema) }

    /// An HTML form, URL-encoded or (for uploads) `multipart/form-data`, decoded by the server.
    public static func form(_ schema: String) -> RouteBody {
        RouteBody(MediaType.urlEncodedForm.description, schema: schema, alternatives: [MediaType.multipartForm.description])
    }

    /// Every media type a request may send the body as.
    public var accepted: [MediaType] {
        ([contentType] + alternatives).compactMap { MediaType($0) }
    }

    /// Whether the server decodes the body as a form before the handler runs.
    var isForm: Bool {
        accepted.contains { $0.accepts(.urlEncodedForm) || $0.accepts(.multipartForm) }
    }

    /// The `415` for a request this body does not accept, `nil` when it does: a request without a body
    /// passes when the body is optional, one without a (well-formed) `Content-Type` does not.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        guard checksContentType, required || request.hasBody else { return nil }
        if let type = request.contentType, accepted.contains(where: { $0.accepts(type) }) { return nil }
        return .problem(status: .unsupportedMediaType, detail: "send the body as Content-Type: \(contentType)")
    }
}

/// One answer a route gives.
public struct RouteResponse: Sendable, Equatable {
    /// The status.
    public let status: HTTPStatus
    /// When and why it is given, in a few words.
    public let description: String
    /// Every media type it may answer with, each with its schema: one for most answers, more when
    /// the request picks the format (a picture as PNG or SVG).
    public let bodies: [RouteBody]

    /// Its body, if it has one (the first of ``bodies``).
    public var body: RouteBody? { bodies.first }

    /// Creates a response description.
    public init(_ status: HTTPStatus, _ description: String, body: RouteBody? = nil) {
        self.init(status, description, bodies: body.map { [$0] } ?? [])
    }

    /// Creates a response description with a choice of media types.
    public init(_ status: HTTPStatus, _ description: String, bodies: [RouteBody]) {
        self.status = status
        self.description = description
        self.bodies = bodies
    }

    /// A JSON body with the named schema.
    public static func json(_ status: HTTPStatus, _ description: String, schema: String) -> RouteResponse {
        RouteResponse(status, description, body: .json(schema))
    }

    /// An RFC 9457 problem (the `Problem` schema unless another is named).
    public static func problem(_ status: HTTPStatus, _ description: String, schema: String = "Problem") -> RouteResponse {
        RouteResponse(status, description, body: RouteBody("application/problem+json", schema: schema))
    }

    /// No body.
    public static func empty(_ status: HTTPStatus, _ description: String) -> RouteResponse {
        RouteResponse(status, description)
    }
}

/// A query or header parameter of a route.
public struct RouteParameter: Sendable, Equatable {
    /// Where it is sent.
    public enum Location: String, Sendable {
        case query, header
    }

    /// Its name.
    public let name: String
    /// Where it is sent.
    public let location: Location
    /// Whether a request without it is refused.
    public let required: Bool
    /// The schema's name under `#/components/schemas`.
    public let schema: String

    /// Creates a parameter description.
    public init(_ name: String, in location: Location, required: Bool = false, schema: String = "Text") {
        self.name = name
        self.location = location
        self.required = required
        self.schema = schema
    }
}
