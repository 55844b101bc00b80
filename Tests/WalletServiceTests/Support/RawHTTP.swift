import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A complete HTTP response as it came off the socket.
struct RawResponse: Sendable, CustomStringConvertible {
    let status: Int
    /// Header fields in order, names as sent.
    let headers: [(name: String, value: String)]
    let body: Data

    /// The first header with this name (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as JSON.
    func json() throws -> JSON {
        do {
            return try JSON(parsing: body)
        } catch {
            throw FixtureError("the body is not JSON (\(error)): \(text.prefix(500))")
        }
    }

    var description: String { "HTTP \(status) \(headers.map { "\($0.name): \($0.value)" }) \(text.prefix(1500))" }
}

/// A small HTTP/1.1 client on POSIX sockets, so tests can send any method, header, target and body
/// bytes, including what URLSession would refuse to send. Every request uses its own connection
/// (`Connection: close`) and blocks a dedicated thread, never the Swift concurrency pool that the
/// in-process server's handlers need.
struct RawHTTPClient: Sendable {
    let port: Int

    /// Sends a request; `Content-Length` is added when there is a body and none was given.
    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil) async throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return try await raw(Data(head.utf8) + (body ?? Data()))
    }

    /// Writes `bytes` as they are and reads the response until the server closes the connection.
    func raw(_ bytes: Data) async throws -> RawResponse {
        let port = self.port
        return try await onThread {
            let connection = try SocketConnection(port: port)
            try connection.write(bytes)
            return try connection.readResponse()
        }
    }

    /// Opens a connection the test drives step by step (e.g. a request that is still uploading).
    func open() async throws -> SocketConnection {
        let port = self.port
        return try await onThread { try SocketConnection(port: port) }
    }
}

/// One TCP connection to 127.0.0.1, closed on deinit. Reads time out after 60 s so a hung server
/// fails the test instead of hanging it.
final class SocketConnection: @unchecked Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close() here: deinit runs for a class whose init throws after initializing every property,
        // and a second close could shut another connection's descriptor reused in between.
        guard result == 0 else { throw SocketError("connect to 127.0.0.1:\(port) failed: errno \(errno)") }
    }

    deinit { close(descriptor) }

    func write(_ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw SocketError("send failed: errno \(errno)") }
            offset += written
        }
    }

    func write(_ text: String) throws { try write(Data(text.utf8)) }

    /// Reads until the server closes the connection, then parses status, headers and a body of
    /// exactly `Content-Length` bytes.
    func readResponse() throws -> RawResponse {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET, !received.isEmpty { break }
                throw SocketError("recv failed: errno \(errno) after \(received.count) bytes")
            }
            received.append(contentsOf: buffer[0..<count])
        }
        return try Self.parse(received)
    }

    static func parse(_ data: Data) throws -> RawResponse {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw SocketError("no complete response head in \(data.count) bytes: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw SocketError("bad status line '\(lines[0])'")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(data[end.upperBound...])
        if let length = headers.first(where: { $0.name.lowercased() == "content-length" }).flatMap({ Int($0.value) }) {
            guard body.count >= length else { throw SocketError("body has \(body.count) of \(length) bytes") }
            body = body.prefix(length)
        }
        return RawResponse(status: status, headers: headers, body: body)
    }
}

struct SocketError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs blocking work on its own thread, off the Swift concurrency pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A fixture that does not have the shape a test relies on.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Optional {
    /// The value, or a `FixtureError` saying what was missing.
    func orThrow(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let self else { throw FixtureError(message()) }
        return self
    }
}
