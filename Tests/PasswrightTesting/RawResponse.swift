import Foundation

/// A complete HTTP response as it came off the socket.
public struct RawResponse: Sendable, CustomStringConvertible {
    /// The status code of the status line.
    public var status: Int
    /// Header fields in order, names as sent.
    public var headers: [(name: String, value: String)]
    /// The body, cut to `Content-Length` when the server sent one.
    public var body: Data

    /// A response made of its parts.
    public init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Shown by `#expect` and `#require` failures.
    public var description: String { "HTTP \(status) \(headers.map { "\($0.name): \($0.value)" }) \(text.prefix(1500))" }

    /// Parses status line, headers and a body cut to `Content-Length` (when there is one) out of
    /// everything a server sent before it closed the connection.
    public static func parse(_ data: Data) throws -> RawResponse {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw RawClientError.malformed("no complete response head in \(data.count) bytes: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw RawClientError.malformed("bad status line '\(lines[0])'")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(data[end.upperBound...])
        if let length = headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }) {
            body = body.prefix(length)
        }
        return RawResponse(status: status, headers: headers, body: body)
    }
}
