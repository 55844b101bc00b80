import Foundation

/// A server's answer: the final status, its header fields in order, and the body.
public struct HTTPClientResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HTTPClientHeader]
    public var body: Data

    public init(status: Int, headers: [HTTPClientHeader] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public subscript(header name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }

    /// The body as UTF-8 text (for messages and HTML checks).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// One response header field; `name` is lowercased (HTTP/2 sends them so, and lookups ignore case).
public struct HTTPClientHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
