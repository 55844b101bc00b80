import Foundation
import HTTPClient

/// Why a push got no answer from APNs at all (an answer, even an error status, is an `APNsResponse`).
///
/// Each case names the server and carries libcurl's own explanation, which is usually the most precise
/// account of what went wrong (the refused certificate, the unreachable address).
public enum APNsError: Error, CustomStringConvertible, Equatable {
    /// A configuration or credentials value cannot work; nothing was sent.
    case invalidConfiguration(field: String, reason: String)
    /// A push token or topic is not something APNs could accept; nothing was sent.
    case invalidRequest(field: String, reason: String)
    /// The libcurl on this machine cannot do what APNs needs (HTTP/2, client certificates).
    case unsupportedLibcurl(reason: String)
    /// No TCP connection to the server (refused, unreachable, name not resolved).
    case connectFailed(server: String, detail: String)
    /// The TLS handshake failed: the server's certificate is not trusted, or ours was refused or unreadable.
    case tlsFailed(server: String, detail: String)
    /// No answer within `APNsConfiguration.requestTimeout`.
    case timedOut(server: String, after: Duration, detail: String)
    /// The connection broke before the answer was complete. Under TLS 1.3 this is also how a client
    /// certificate refused by the server shows, since the refusal arrives after the handshake.
    case connectionLost(server: String, detail: String)
    /// Any other libcurl failure, with its error code.
    case transferFailed(server: String, code: Int, detail: String)
    /// The client was shut down; create a new one to push again.
    case shutDown

    /// The HTTP client's account of a push that got no answer, in APNs's terms.
    init(_ error: HTTPClientError) {
        switch error {
        case .invalidConfiguration(let field, let reason): self = .invalidConfiguration(field: field, reason: reason)
        case .invalidRequest(let field, let reason): self = .invalidRequest(field: field, reason: reason)
        case .unsupportedLibcurl(let reason): self = .unsupportedLibcurl(reason: reason)
        case .connectFailed(let server, let detail): self = .connectFailed(server: server, detail: detail)
        case .tlsFailed(let server, let detail): self = .tlsFailed(server: server, detail: detail)
        case .timedOut(let server, let after, let detail): self = .timedOut(server: server, after: after, detail: detail)
        case .connectionLost(let server, let detail): self = .connectionLost(server: server, detail: detail)
        case .responseTooLarge(let server, let limit): self = .transferFailed(server: server, code: 23, detail: "an answer over \(limit) bytes")
        case .transferFailed(let server, let code, let detail): self = .transferFailed(server: server, code: code, detail: detail)
        case .shutDown: self = .shutDown
        }
    }

    /// A message a user can act on, naming the server and what to check.
    public var description: String {
        switch self {
        case .invalidConfiguration(let field, let reason):
            "Invalid APNs configuration '\(field)': \(reason)."
        case .invalidRequest(let field, let reason):
            "Invalid APNs request '\(field)': \(reason)."
        case .unsupportedLibcurl(let reason):
            "The installed libcurl cannot push to APNs: \(reason). Install libcurl with HTTP/2 (nghttp2) and OpenSSL."
        case .connectFailed(let server, let detail):
            "Cannot connect to APNs at \(server): \(detail). Check the network, firewall (port 443 or 2197) and URL."
        case .tlsFailed(let server, let detail):
            "TLS with APNs at \(server) failed: \(detail). Check the Pass Type ID certificate and key, and the trusted CA."
        case .timedOut(let server, let after, let detail):
            "APNs at \(server) did not answer within \(after): \(detail)."
        case .connectionLost(let server, let detail):
            "The connection to APNs at \(server) broke before the answer: \(detail). If it happens on every push, the server may be refusing the client certificate."
        case .transferFailed(let server, let code, let detail):
            "Push to APNs at \(server) failed (libcurl error \(code)): \(detail)."
        case .shutDown:
            "The APNs client was shut down; create a new client to push again."
        }
    }
}
