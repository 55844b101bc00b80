import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 client on POSIX sockets, so tests can send any method, header, target and body
/// bytes, including malformed requests URLSession would refuse to send.
///
/// Every request uses its own connection (`Connection: close`) and reads until the server closes it.
/// The blocking socket calls run on a thread of their own (``onThread(_:)``), so many requests can
/// wait at once without starving the Swift concurrency pool that an in-process server's handlers need.
public struct RawHTTPClient: Sendable {
    /// The port on 127.0.0.1 the server under test listens on.
    public let port: Int
    /// How long a read or write may block before the request fails instead of hanging the test.
    public var timeoutSeconds: Int

    /// A client for `127.0.0.1:port`; 60 s is longer than any test waits for a slow answer on purpose.
    public init(port: Int, timeoutSeconds: Int = 60) {
        self.port = port
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends a well-formed request; `Content-Length` is added when there is a body and none was given.
    public func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return try await exchange(Data(head.utf8) + (body ?? Data()))
    }

    /// Writes `raw` as it is on a new connection and reads the whole response. The server may answer
    /// and close before it has read everything (a 413); the response is read all the same.
    public func exchange(_ raw: Data) async throws -> RawResponse {
        let port = self.port, timeoutSeconds = self.timeoutSeconds
        return try await onThread {
            let connection = try SocketConnection(port: port, timeoutSeconds: timeoutSeconds)
            connection.writeUntilRefused(raw)
            return try connection.readResponse()
        }
    }

    /// Opens a connection the test drives step by step (e.g. a request that is still uploading).
    public func open() async throws -> SocketConnection {
        let port = self.port, timeoutSeconds = self.timeoutSeconds
        return try await onThread { try SocketConnection(port: port, timeoutSeconds: timeoutSeconds) }
    }

    /// Opens a connection and hands over its descriptor, for tests that drive `send`/`recv`
    /// themselves; the caller closes it. Throws ``RawClientError/connect(port:errno:)``.
    public func connect() throws -> Int32 {
        let connection = try SocketConnection(port: port, timeoutSeconds: timeoutSeconds)
        let descriptor = dup(connection.descriptor)
        guard descriptor >= 0 else { throw RawClientError.io("dup failed: errno \(errno)") }
        return descriptor
    }
}
