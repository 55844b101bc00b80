import Foundation
import PasswrightTesting
import Testing
@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#endif

/// Regressions found by scripts/hostile.sh: requests a server must refuse or cut off instead of
/// guessing what they mean, through a real server on 127.0.0.1.
@Suite struct HostileRequestTests {
    static func router(handled: Counter = Counter()) -> Router {
        var router = ServerLimitsTests.router()
        router.get("/count") { _, _ in
            handled.increment()
            return .bytes(Data("counted".utf8), contentType: "text/plain")
        }
        return router
    }

    /// Everything the server sends until it closes the connection (or the client's read timeout).
    private static func readAll(_ fd: Int32) -> Data {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return received }
            received.append(contentsOf: buffer[0..<n])
        }
    }

    private static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count }
    }

    @Test(arguments: [
        "GET /count HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n",
        "GET /count HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 4\r\n\r\nabcd",
        "POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        "GET /count HTTP/1.1\r\nHost: x\r\nX-Name : value\r\n\r\n",
        "G\u{1}T /count HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /co\u{7F}unt HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /cou\tnt HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /caf\u{E9} HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    func ambiguousOrInvalidHeadIs400WithoutReachingTheHandler(raw: String) async throws {
        let handled = Counter()
        try await withServer(Self.router(handled: handled)) { client in
            let response = try await client.exchange(Data(raw.utf8))
            #expect(response.status == 400)
            #expect(response.header("Connection")?.lowercased() == "close")
            #expect(handled.count == 0)
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    /// A body framed both by length and by chunks could hide a second request (request smuggling):
    /// the server refuses it and closes, so the hidden request never runs.
    @Test func contentLengthWithTransferEncodingIsRefusedAndTheSmuggledRequestNeverRuns() async throws {
        let handled = Counter()
        try await withServer(Self.router(handled: handled)) { client in
            let smuggled = "GET /count HTTP/1.1\r\nHost: x\r\n\r\n"
            let body = "0\r\n\r\n" + smuggled
            let raw = "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n" + body
            let received = try await onThread {
                let fd = try client.connect()
                defer { close(fd) }
                _ = Self.send(fd, raw)
                return Self.readAll(fd)
            }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400"))
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2)  // one response only
            #expect(handled.count == 0)
        }
    }

    /// RFC 9112 §3.2.2: a server must accept a request target in absolute form.
    @Test func absoluteFormTargetIsRouted() async throws {
        try await withServer(Self.router()) { client in
            let response = try await client.exchange(Data("GET http://127.0.0.1/ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            #expect(response.status == 200)
            #expect(response.text == "ok")
        }
    }

    @Test(arguments: [
        ("http://host/ok?x=1", "/ok?x=1"), ("HTTPS://host:8443/a/b", "/a/b"), ("http://host", "/"), ("http://host?q", "/?q"),
        ("/plain/path", "/plain/path"), ("*", "*"),
    ])
    func originFormOfATarget(target: String, expected: String) {
        #expect(RequestHeadCheck.originForm(target) == expected)
    }

    /// A chunked body that never ends used to be read (and dropped) forever; past twice the limit the
    /// server now answers or closes the connection.
    @Test func endlessChunkedBodyIsCutOff() async throws {
        try await withServer(Self.router()) { client in
            let received = try await onThread {
                let fd = try client.connect()
                defer { close(fd) }
                _ = Self.send(fd, "POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                let chunk = "40\r\n" + String(repeating: "x", count: 64) + "\r\n"
                for _ in 0..<8 where Self.send(fd, chunk) {}  // 512 bytes for a 64-byte route, and no last chunk
                return Self.readAll(fd)
            }
            let text = String(decoding: received, as: UTF8.self)
            #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 413"))
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    /// libmicrohttpd's timeout counts idle time only: a client sending a header byte at a time used to
    /// hold its connection forever. It is now closed once the request takes longer than the timeout.
    @Test func clientTricklingItsHeadIsCutOff() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, connectionTimeout: .seconds(1))
        try await withServer(Self.router(), configuration: configuration) { client in
            let cutOff = try await onThread {
                let fd = try client.connect()
                defer { close(fd) }
                guard Self.send(fd, "GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: ") else { return false }
                for _ in 0..<40 {  // up to 10 s of one byte every 250 ms, each well inside the idle timeout
                    usleep(250_000)
                    var probe: UInt8 = 0
                    if recv(fd, &probe, 1, Int32(MSG_DONTWAIT)) == 0 { return true }
                    if !Self.send(fd, "a") { return true }
                }
                return false
            }
            #expect(cutOff)
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    /// A query with more arguments than fit libmicrohttpd's per-connection memory is refused by the
    /// library before any handler runs, and it then calls no completion callback: the request used to
    /// stay "in flight" forever (a leak per request, and every shutdown waited the whole grace period).
    @Test func requestTheLibraryRefusesIsNotLeftInFlight() async throws {
        let log = LogRecorder()
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, connectionTimeout: .seconds(1), shutdownGracePeriod: .seconds(3))
        try await withServer(ServerLimitsTests.router(), configuration: configuration, logger: log.logger) { client in
            let raw = "GET /ok?" + String(repeating: "&", count: 2000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            _ = try? await client.exchange(Data(raw.utf8))  // no answer; the connection is closed
            let next = try await client.request("GET", "/ok")
            #expect(next.status == 200)
        }
        #expect(log.recorded.contains { $0.message == "libmicrohttpd" })  // the library did refuse it
        #expect(!log.recorded.contains { $0.message.contains("still in flight") })
    }
}
