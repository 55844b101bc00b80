#if canImport(Glibc)
import Glibc
#endif

/// Why ``RawHTTPClient`` got no response, so a test can tell a refused connection (the server is
/// gone) from a connection closed without an answer (the server dropped the request).
public enum RawClientError: Error, Equatable, CustomStringConvertible {
    /// `connect` failed with `errno` (`ECONNREFUSED` once the server has shut down).
    case connect(port: Int, errno: Int32)
    case io(String)
    case malformed(String)
    /// The server closed the connection without sending a byte.
    case closedWithoutResponse

    /// The failure in words, with the port or `errno` text.
    public var description: String {
        switch self {
        case .connect(let port, let code): "connect to 127.0.0.1:\(port) failed: \(String(cString: strerror(code)))"
        case .io(let what): "socket I/O failed: \(what)"
        case .malformed(let what): "malformed response: \(what)"
        case .closedWithoutResponse: "the server closed the connection without a response"
        }
    }
}
