import Foundation

/// One request as it goes on the wire. Header names and values are checked when the request is sent:
/// a CR or LF in either (which would let a value add headers) is refused, never sent.
public struct HTTPClientRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// In order; a header with an empty value is sent as `Name:` (libcurl's way to drop its default).
    public var headers: [(name: String, value: String)]
    public var body: Data?
    /// The address to connect to instead of resolving the URL's host again (libcurl's
    /// `CURLOPT_RESOLVE`): a caller that checked where a name points pins the connection there, so the
    /// name cannot point elsewhere between the check and the connection. The host name still goes in
    /// TLS's SNI and certificate check, and in `Host`.
    public var pinnedAddress: String?

    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil, pinnedAddress: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.pinnedAddress = pinnedAddress
    }

    public static func == (left: HTTPClientRequest, right: HTTPClientRequest) -> Bool {
        left.method == right.method && left.url == right.url && left.body == right.body && left.pinnedAddress == right.pinnedAddress
            && left.headers.elementsEqual(right.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}
