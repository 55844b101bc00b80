import PasswrightLogging
import Locking
import Foundation
import HTTPServer
import PasswrightTesting
import Testing

/// Limits and malformed input through a real server: the server refuses, and keeps serving.
@Suite struct ServerLimitsTests {
    static func router() -> Router {
        var router = Router()
        router.post("/small", maxBodySize: 64) { request, context in
            .bytes(request.body, contentType: "application/octet-stream")
        }
        router.post("/default") { request, context in .bytes(Data("\(request.body.count)".utf8), contentType: "text/plain") }
        router.get("/ok") { _, _ in .bytes(Data("ok".utf8), contentType: "text/plain") }
        router.get("/hang") { _, _ in
            try await Task.sleep(for: .seconds(60))
            return .empty()
        }
        router.get("/fast") { _, _ in .bytes(Data("fast".utf8), contentType: "text/plain") }
        router.get("/hang-and-report") { request, _ in
            let cancelled = request.query("flag").map { CancellationFlags.shared.flag($0) }
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled?.set()
                throw error
            }
            return .empty()
        }
        router.get("/bad-header") { _, _ in HTTPResponse(status: .ok, headers: ["X-Injected": "a\r\nSet-Cookie: evil=1"]) }
        return router
    }

    @Test func declaredBodyOverRouteLimitIs413AndServerKeepsServing() async throws {
        try await withServer(Self.router()) { client in
            let refused = try await client.request("POST", "/small", body: Data(repeating: 0x41, count: 100_000))
            #expect(refused.status == 413)
            let problem = try JSONDecoder().decode(HTTPProblem.self, from: refused.body)
            #expect(problem.status == 413)
            #expect(problem.detail?.contains("64 bytes") == true)

            let fits = try await client.request("POST", "/small", body: Data("hello".utf8))
            #expect(fits.status == 200)
            #expect(fits.text == "hello")
            #expect(try await client.request("GET", "/ok").text == "ok")
        }
    }

    /// A client that sends its whole 3 MB body before reading (as most do) gets the 413: the server
    /// answers from the head and drops the unread upload before it closes, so the kernel ends the
    /// connection instead of resetting it under the response.
    @Test func threeMegabyteUploadOverTheLimitGetsIts413() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, maxBodySize: 1 << 20)
        try await withServer(Self.router(), configuration: configuration) { client in
            let body = Data(repeating: 0x7B, count: 3_000_000)
            let head = "POST /default HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let connection = try await client.open()
            let response = try await onThread { () throws -> RawResponse in
                _ = connection.writeUntilRefused(Data(head.utf8) + body)
                return try connection.readResponse()
            }
            #expect(response.status == 413)
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    /// A client that declares a body over the limit and waits to hear back before sending it (without
    /// `Expect: 100-continue`) gets its 413 from the head: it never has to send a byte of the body. The
    /// server's receive limit is far longer than the client's read timeout, so a server that waited for
    /// the body would fail this by the client's timeout, not by a clock in the test.
    @Test func declaredBodyOverTheLimitIsAnsweredBeforeTheClientSendsIt() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, connectionTimeout: .seconds(120), maxBodySize: 1 << 20)
        try await withServer(Self.router(), configuration: configuration) { client in
            let head = "POST /default HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(2 << 20)\r\n\r\n"
            let connection = try SocketConnection(port: client.port, timeoutSeconds: 20)
            let response = try await onThread { () throws -> RawResponse in
                try connection.write(head)
                return try connection.readResponse()
            }
            #expect(response.status == 413)
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    @Test func chunkedBodyOverLimitIs413() async throws {
        try await withServer(Self.router()) { client in
            let chunk = String(repeating: "B", count: 50)
            let raw = "POST /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "32\r\n\(chunk)\r\n32\r\n\(chunk)\r\n0\r\n\r\n"
            let refused = try await client.exchange(Data(raw.utf8))
            #expect(refused.status == 413)
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    @Test func defaultBodyLimitComesFromConfiguration() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, maxBodySize: 1000)
        try await withServer(Self.router(), configuration: configuration) { client in
            let atLimit = try await client.request("POST", "/default", body: Data(count: 1000))
            let overLimit = try await client.request("POST", "/default", body: Data(count: 1001))
            #expect(atLimit.text == "1000")
            #expect(overLimit.status == 413)
        }
    }

    @Test(arguments: [
        "GET /ok\r\n\r\n",  // no HTTP version
        "GET /ok HTTX/1.1\r\nHost: x\r\n\r\n",  // not HTTP
        "GET /ok HTTP/1.1 extra\r\nHost: x\r\n\r\n",  // a fourth token
        "GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n",  // HTTP/1.1 without Host
    ])
    func malformedRequestLineIs400(raw: String) async throws {
        try await withServer(Self.router()) { client in
            let response = try await client.exchange(Data(raw.utf8))
            #expect(response.status == 400)
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    /// A line libmicrohttpd cannot parse at all gets the connection closed, never a handler's answer.
    @Test(arguments: ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n"])
    func unparseableRequestLineClosesTheConnection(raw: String) async throws {
        try await withServer(Self.router()) { client in
            await #expect(throws: RawClientError.closedWithoutResponse) { try await client.exchange(Data(raw.utf8)) }
            let next = try await client.request("GET", "/ok")
            #expect(next.status == 200)
        }
    }

    @Test func oversizedHeadersAreRefused() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, maxHeaderSize: 8 * 1024)
        try await withServer(Self.router(), configuration: configuration) { client in
            let response = try await client.request("GET", "/ok", headers: [("X-Big", String(repeating: "h", count: 16 * 1024))])
            #expect([413, 414, 431].contains(response.status))
            #expect(try await client.request("GET", "/ok").status == 200)
        }
    }

    @Test func handlerOverTheRequestTimeLimitIs503() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, requestTimeLimit: .milliseconds(200))
        try await withServer(Self.router(), configuration: configuration) { client in
            let response = try await client.request("GET", "/hang")
            #expect(response.status == 503)
            #expect(response.header("content-type") == "application/problem+json")
        }
    }

    /// One watcher keeps every responder's deadline: a slow request after many fast ones (and beside
    /// them) still gets its `503` on time, and its responder is cancelled.
    @Test func slowResponderAmongFastOnesIsCutOffAndCancelled() async throws {
        let configuration = HTTPServerConfiguration(port: 0, threadCount: 2, requestTimeLimit: .milliseconds(300))
        try await withServer(Self.router(), configuration: configuration) { client in
            for _ in 0..<50 {
                let fast = try await client.request("GET", "/fast")
                #expect(fast.status == 200)
            }
            let flag = UUID().uuidString
            let started = ContinuousClock.now
            async let slow = client.request("GET", "/hang-and-report?flag=\(flag)")
            for _ in 0..<20 {
                let fast = try await client.request("GET", "/fast")
                #expect(fast.status == 200)
            }
            let slowStatus = try await slow.status
            #expect(slowStatus == 503)
            #expect(ContinuousClock.now - started < .seconds(20))
            #expect(await CancellationFlags.shared.flag(flag).wait(upTo: .seconds(10)))
        }
    }

    @Test func invalidResponseHeaderBecomes500AndIsLogged() async throws {
        let log = LogRecorder()
        try await withServer(Self.router(), logger: log.logger) { client in
            let response = try await client.request("GET", "/bad-header")
            #expect(response.status == 500)
            #expect(response.header("set-cookie") == nil)
        }
        #expect(log.recorded.contains { $0.message == "response header refused" && $0.fields["header"] == "X-Injected" })
    }

    @Test func bindFailureNamesHostPortAndReason() async throws {
        try await withServer(Self.router()) { client in
            let second = HTTPServer(
                configuration: HTTPServerConfiguration(port: client.port, threadCount: 1),
                responder: Self.router(),
                logger: Logger(label: "test", level: .error)
            )
            let error = try #require(throws: HTTPServerError.self) { try second.start() }
            #expect(error.description.contains("127.0.0.1:\(client.port)"))
            #expect(error.description.lowercased().contains("in use"))
        }
    }

    @Test func invalidHostnameIsReported() {
        let server = HTTPServer(configuration: HTTPServerConfiguration(hostname: "no such host.invalid", port: 0), responder: Self.router())
        #expect(throws: HTTPServerError.self) { try server.start() }
    }
}

/// Flags the `/hang-and-report` responders raise when they are cancelled, by name.
private final class CancellationFlags: Sendable {
    static let shared = CancellationFlags()
    private let flags = Locked<[String: Flag]>([:])

    func flag(_ name: String) -> Flag {
        flags.withLock { flags in
            if let flag = flags[name] { return flag }
            let flag = Flag()
            flags[name] = flag
            return flag
        }
    }

    final class Flag: Sendable {
        private let raised = Locked(false)
        func set() { raised.withLock { $0 = true } }
        /// Whether the flag is up within `limit` (checked every 10 ms: the test has nothing to await).
        func wait(upTo limit: Duration) async -> Bool {
            let end = ContinuousClock.now + limit
            while ContinuousClock.now < end {
                if raised.withLock({ $0 }) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return raised.withLock { $0 }
        }
    }
}
