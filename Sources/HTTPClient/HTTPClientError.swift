import Foundation

/// Why a request got no answer at all (an answer, even an error status, is an `HTTPClientResponse`).
///
/// Each case names the server and carries libcurl's own explanation, usually the most precise account
/// of what went wrong (the untrusted certificate, the refused connection).
public enum HTTPClientError: Error, CustomStringConvertible, Equatable {
    /// A configuration value cannot work; nothing was sent.
    case invalidConfiguration(field: String, reason: String)
    /// The request cannot be sent as given (a scheme not allowed, a header with a line break).
    case invalidRequest(field: String, reason: String)
    /// The libcurl on this machine lacks what the client needs (HTTP/2, TLS).
    case unsupportedLibcurl(reason: String)
    /// No TCP connection to the server (refused, unreachable, name not resolved).
    case connectFailed(server: String, detail: String)
    /// The TLS handshake failed: the server's certificate is not trusted, or ours was refused or unreadable.
    case tlsFailed(server: String, detail: String)
    /// No answer within `HTTPClientConfiguration.requestTimeout`.
    case timedOut(server: String, after: Duration, detail: String)
    /// The connection broke before the answer was complete.
    case connectionLost(server: String, detail: String)
    /// The answer's body was longer than `HTTPClientConfiguration.maxResponseBody`.
    case responseTooLarge(server: String, limit: Int)
    /// Any other libcurl failure, with its error code.
    case transferFailed(server: String, code: Int, detail: String)
    /// The client was shut down; create a new one.
    case shutDown

    public var description: String {
        switch self {
        case .invalidConfiguration(let field, let reason): "Invalid HTTP client configuration '\(field)': \(reason)."
        case .invalidRequest(let field, let reason): "Invalid request '\(field)': \(reason)."
        case .unsupportedLibcurl(let reason): "The installed libcurl cannot do this: \(reason). Install libcurl with HTTP/2 (nghttp2) and OpenSSL."
        case .connectFailed(let server, let detail): "Cannot connect to \(server): \(detail)."
        case .tlsFailed(let server, let detail): "TLS with \(server) failed: \(detail)."
        case .timedOut(let server, let after, let detail): "\(server) did not answer within \(after): \(detail)."
        case .connectionLost(let server, let detail): "The connection to \(server) broke before the answer: \(detail)."
        case .responseTooLarge(let server, let limit): "\(server) answered with a body over \(limit) bytes."
        case .transferFailed(let server, let code, let detail): "The request to \(server) failed (libcurl error \(code)): \(detail)."
        case .shutDown: "The HTTP client was shut down."
        }
    }
}
