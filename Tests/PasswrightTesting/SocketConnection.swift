import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to 127.0.0.1 that a test drives step by step (a request still uploading, bytes
/// a well-behaved client would never send); closed on deinit. Reads and writes time out, so a hung
/// server fails the test instead of hanging it.
public final class SocketConnection: @unchecked Sendable {  // immutable: one descriptor, closed once in deinit
    /// The socket, for tests that call `send`/`recv` themselves.
    public let descriptor: Int32

    /// Connects; throws ``RawClientError/connect(port:errno:)`` with `errno` (e.g. `ECONNREFUSED`).
    public init(port: Int, timeoutSeconds: Int = 60) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawClientError.io("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close() here: deinit runs for a class whose init throws after initializing every property,
        // and a second close could shut another connection's descriptor reused in between.
        guard result == 0 else { throw RawClientError.connect(port: port, errno: errno) }
    }

    deinit { close(descriptor) }

    /// Writes all of `data`; throws when the server closed or reset the connection.
    public func write(_ data: Data) throws {
        guard writeUntilRefused(data) == data.count else { throw RawClientError.io("send failed: errno \(errno)") }
    }

    /// Writes `text` as UTF-8; as ``write(_:)`` writes data.
    public func write(_ text: String) throws { try write(Data(text.utf8)) }

    /// Writes as much of `data` as the server takes before it closes; returns how many bytes that was.
    /// A server may answer (413) and close before a whole body is sent; the test then reads what it said.
    @discardableResult
    public func writeUntilRefused(_ data: Data) -> Int {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { break }
            offset += written
        }
        return offset
    }

    /// Reads one response head (to its blank line) and no more: an interim `100 Continue`, which says
    /// the server has taken the request's head and waits for its body.
    public func readHead() throws -> String {
        var received = Data()
        var byte: UInt8 = 0
        while !received.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { throw RawClientError.closedWithoutResponse }
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads until the server closes the connection, then parses the response.
    public func readResponse() throws -> RawResponse {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET, !received.isEmpty { break }
                throw RawClientError.io("recv failed: \(String(cString: strerror(errno))) after \(received.count) bytes")
            }
            received.append(contentsOf: buffer[0..<count])
        }
        guard !received.isEmpty else { throw RawClientError.closedWithoutResponse }
        return try RawResponse.parse(received)
    }
}
