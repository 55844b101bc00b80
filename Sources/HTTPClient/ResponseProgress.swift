import Foundation

/// How much of one response has arrived, built from the header lines and body bytes libcurl hands to
/// its callbacks, so that a transfer libcurl ends with an error can still count as answered.
///
/// An HTTP/2 server may send its complete response before it has read the request body and then
/// reset the stream with RST_STREAM(NO_ERROR) (RFC 9113 §8.1); libcurl reports that as a stream
/// error. The response is the server's answer all the same, and treating it as a lost connection
/// resends a request the server took (issue #14: 11,281 pushes sent for 10,000). A pure value, so
/// the rule is testable without a socket.
struct ResponseProgress: Sendable, Equatable {
    /// The status of the current status line, final (≥ 200) or interim (1xx).
    private var status: Int?
    /// Whether the header block of a final status has ended (the empty line after it).
    private var headersComplete = false
    /// The `content-length` of the final response, when it sent one.
    private var contentLength: Int?
    /// The final response's header fields so far, names lowercased.
    private(set) var headers: [HTTPClientHeader] = []
    /// The response body as received so far.
    private(set) var body: [UInt8] = []

    /// Takes one header line as libcurl delivers it (status line, field or the empty line ending the
    /// block, with its CRLF). A new status line (an interim response ending, or libcurl retrying the
    /// request on a fresh connection) discards what came before it.
    mutating func receiveHeaderLine(_ line: String) {
        if line.hasPrefix("HTTP/") {
            self = ResponseProgress()
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            status = parts.count >= 2 ? Int(parts[1]) : nil
            return
        }
        guard !headersComplete else { return }  // trailers say nothing about completeness
        if line == "\r\n" || line == "\n" {
            headersComplete = (status ?? 0) >= 200
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        // Trimmed by hand: Foundation's `trimmingCharacters` was a few percent of a push fan-out's CPU.
        var trimmed = line[line.index(after: colon)...]
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        let value = String(trimmed)
        headers.append(HTTPClientHeader(name: name, value: value))
        if name == "content-length" { contentLength = Int(value) }
    }

    /// Takes a piece of the response body.
    mutating func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        body.append(contentsOf: bytes)
    }

    /// The first value of a header of the response so far, by lowercase name.
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The final status of a response that arrived whole: its header block ended and its body is as
    /// long as `content-length` says, or empty when it sent none (an unannounced body may have been
    /// cut short, and resending is the safe side then). `nil` while anything may be missing.
    var completeStatus: Int? {
        guard headersComplete, let status else { return nil }
        if let contentLength { return body.count == contentLength ? status : nil }
        return body.isEmpty ? status : nil
    }
}
