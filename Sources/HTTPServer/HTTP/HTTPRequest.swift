import Foundation

/// One request as a handler sees it: fully received, decoded where decoding is safe, and immutable.
///
/// The raw path is kept next to the decoded one because routing must split on `/` before decoding:
/// otherwise `%2F` inside a path parameter would become a separator.
public struct HTTPRequest: Sendable {
    /// The method; unknown methods are kept as `.other`.
    public var method: HTTPMethod
    /// The path exactly as received, still percent-encoded, without the query.
    public var rawPath: String
    /// The path percent-decoded, or the raw path when it does not decode to UTF-8.
    public var path: String
    /// The query exactly as received (after `?`), or `nil` when there was none.
    public var rawQuery: String?
    /// The query items decoded (`+` is a space, then percent-decoding), in order, duplicates kept.
    public var queryItems: [HTTPQueryItem]
    /// The header fields; lookups ignore case.
    public var headers: HTTPHeaders
    /// The body, complete; its size was checked against the route's limit before it was buffered.
    /// Empty for a route whose body is spooled (``spooledBody``).
    public var body: Data
    /// The body written to a temporary file as it arrived, for a route whose body is
    /// ``RouteBody/spooled``; `nil` otherwise.
    public var spooledBody: SpooledBody?
    /// The numeric IP address of the peer (the proxy, behind a reverse proxy), if known.
    public var remoteAddress: String?
    /// The form the server decoded from the body, for a route whose body is a form (``RouteBody/form(_:)``);
    /// `nil` when it decoded none.
    var decodedForm: Result<HTTPForm, HTTPError>?

    /// Creates a request from a request target (`/path?query`), as the server does and as in-process tests can.
    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        spooledBody: SpooledBody? = nil,
        remoteAddress: String? = nil
    ) {
        // The byte, not the `Character`: finding a `Character` walks grapheme clusters.
        let pathEnd = target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex
        let rawPath = String(target[..<pathEnd])
        let rawQuery = pathEnd == target.endIndex ? nil : String(target[target.index(after: pathEnd)...])
        self.method = method
        self.rawPath = rawPath
        self.path = PercentDecoding.decode(rawPath) ?? rawPath
        self.rawQuery = rawQuery
        self.queryItems = rawQuery.map(HTTPQueryItem.parse) ?? []
        self.headers = headers
        self.body = body
        self.spooledBody = spooledBody
        self.remoteAddress = remoteAddress
    }

    /// The posted form of a route whose body is a form: decoded by the server once the body was in, with
    /// libmicrohttpd's own parser. Throws `400` for a malformed form, `415` when the body is no form.
    public func form() throws(HTTPError) -> HTTPForm {
        guard let decodedForm else {
            throw HTTPError(.unsupportedMediaType, "send the form as application/x-www-form-urlencoded or multipart/form-data")
        }
        return try decodedForm.get()
    }

    /// Whether the request carries a body, in memory or spooled.
    public var hasBody: Bool {
        !body.isEmpty || (spooledBody?.count ?? 0) > 0
    }

    /// The first value of a query item, or `nil` when it is absent.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}

/// One `name=value` pair of a query string, decoded.
public struct HTTPQueryItem: Sendable, Equatable {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty for `?flag` without `=`.
    public var value: String

    /// Creates an item from decoded text.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Splits a raw query on `&`, then `=`, decoding `+` as a space and percent escapes;
    /// an undecodable part is kept raw rather than dropped, so nothing a client sent disappears silently.
    static func parse(_ rawQuery: String) -> [HTTPQueryItem] {
        rawQuery.utf8.split(separator: UInt8(ascii: "&")).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring.UTF8View) -> String in
                let text = rawQuery[part.startIndex..<part.endIndex]
                return PercentDecoding.decode(text, plusIsSpace: true) ?? String(text).replacingOccurrences(of: "+", with: " ")
            }
            return HTTPQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
