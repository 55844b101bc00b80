import Foundation
import HTTPClient

/// One push as it goes on the wire (Apple's APNs documentation): `POST /3/device/<token>` with the pass headers and `{}`.
struct APNsRequest: Sendable, Equatable {
    /// The full URL, origin plus `/3/device/<token>`.
    var url: URL
    var headers: [(name: String, value: String)]
    /// Always `{}`: Wallet ignores any content, and an empty body would be `PayloadEmpty`.
    var body: Data { Data("{}".utf8) }

    /// The request the HTTP client sends.
    var httpRequest: HTTPClientRequest {
        HTTPClientRequest(method: "POST", url: url, headers: headers, body: body)
    }

    static func == (left: APNsRequest, right: APNsRequest) -> Bool {
        left.httpRequest == right.httpRequest
    }

    /// Validates the token and topic (they end up in the path and a header) and stamps the expiration.
    init(origin: URL, pushToken: String, topic: String, expiration: Duration, now: Date) throws(APNsError) {
        // Wallet registers hex tokens; anything else could change the path, so it never reaches the URL.
        guard !pushToken.isEmpty, pushToken.utf8.allSatisfy({ $0.isHexDigit }) else {
            throw .invalidRequest(field: "pushToken", reason: "must be the hexadecimal token the device registered, got \(pushToken.count) characters that are not all hex digits")
        }
        guard !topic.isEmpty, topic.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidRequest(field: "topic", reason: "must be the pass type identifier (printable ASCII, no spaces), got '\(topic)'")
        }
        let base = origin.absoluteString.hasSuffix("/") ? String(origin.absoluteString.dropLast()) : origin.absoluteString
        let expiresAt = expiration == .zero ? 0 : Int64(now.timeIntervalSince1970) + expiration.components.seconds
        guard let url = URL(string: "\(base)/3/device/\(pushToken)") else {
            throw .invalidConfiguration(field: "url", reason: "'\(base)' does not make a URL with a device path")
        }
        self.url = url
        self.headers = [
            ("apns-topic", topic),
            ("apns-push-type", "background"),
            // Apple: a background push must have priority 5; 10 is an error.
            ("apns-priority", "5"),
            ("apns-expiration", "\(expiresAt)"),
            ("content-type", "application/json"),
            // libcurl adds `Accept: */*` unless told not to; APNs has no use for it.
            ("accept", ""),
        ]
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
