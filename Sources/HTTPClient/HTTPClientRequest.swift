import Foundation

/// One request as it goes on the wire. Header names and values are checked when the request is sent:
/// a CR or LF in either (which would let a value add headers) is refused, never sent.
public struct HTTPClientRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// In order; a header with an empty value is sent as `Name:` (libcurl's way to drop its default).
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    public static func == (left: HTTPClientRequest, right: HTTPClientRequest) -> Bool {
        left.method == right.method && left.url == right.url && left.body == right.body
            && left.headers.elementsEqual(right.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}
