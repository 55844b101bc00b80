import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A response as read off the wire by `RawHTTPClient`.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

enum RawClientError: Error, Equatable, CustomStringConvertible {
    case connect(port: Int, errno: Int32)
    case io(String)
    case malformed(String)
    /// The server closed the connection without sending a byte.
    case closedWithoutResponse

    var description: String {
        switch self {
        case .connect(let port, let code): "connect to 127.0.0.1:\(port) failed: \(String(cString: strerror(code)))"
        case .io(let what): "socket I/O failed: \(what)"
        case .malformed(let what): "malformed response: \(what)"
        case .closedWithoutResponse: "the server closed the connection without a response"
        }
    }
}

/// A blocking POSIX-socket HTTP/1.1 client: sends exactly the bytes given (so malformed requests are
/// possible) and reads until the server closes the connection. Every read has a timeout, so a server
/// that never answers fails the test instead of hanging it.
struct RawHTTPClient: Sendable {
    let port: Int
    var timeoutSeconds = 15

    /// Opens a connection to 127.0.0.1:port; throws `.connect` with errno (e.g. ECONNREFUSED).
    func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawClientError.io("socket") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw RawClientError.connect(port: port, errno: code)
        }
        return fd
    }

    /// Sends raw bytes on a new connection and reads the whole response (the server closes after it).
    /// The blocking socket calls run on a thread of their own, so many requests can wait at once without
    /// starving Swift's cooperative pool, which the server's handlers need.
    func exchange(_ raw: Data) async throws -> RawResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try exchangeBlocking(raw) }) }
        }
    }

    private func exchangeBlocking(_ raw: Data) throws -> RawResponse {
        let fd = try connect()
        defer { close(fd) }
        raw.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let n = send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                // The server may answer (413) and close before the whole body is sent; read what it said.
                guard n > 0 else { return }
                sent += n
            }
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { break }
            if n < 0 {
                if errno == ECONNRESET, !received.isEmpty { break }
                throw RawClientError.io("recv: \(String(cString: strerror(errno)))")
            }
            received.append(contentsOf: buffer[0..<n])
        }
        guard !received.isEmpty else { throw RawClientError.closedWithoutResponse }
        return try Self.parse(received)
    }

    /// Sends a well-formed request with `Connection: close`.
    func request(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: Data = Data()
    ) async throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try await exchange(Data(head.utf8) + body)
    }

    static func parse(_ data: Data) throws -> RawResponse {
        guard let end = data.firstRange(of: Data("\r\n\r\n".utf8)) else {
            throw RawClientError.malformed("no end of headers in \(data.count) bytes")
        }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw RawClientError.malformed("status line \(statusLine)")
        }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(data[end.upperBound...])
        if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }) {
            body = body.prefix(length)
        }
        return RawResponse(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
    }
}
