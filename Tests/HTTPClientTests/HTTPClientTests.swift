import Foundation
import HTTPClient
import HTTPServer
import PasswrightTesting
import Testing

/// The client against a real HTTP server on 127.0.0.1: methods, bodies, headers both ways, and every
/// way a request can get no answer, each named.
@Suite struct HTTPClientTests {
    static func router() -> Router {
        var router = Router()
        router.get("/hello") { _, _ in
            HTTPResponse(status: .ok, headers: ["X-Greeting": "hi", "Content-Type": "text/plain"], body: Data("hello".utf8))
        }
        router.post("/echo") { request, _ in
            var headers: HTTPHeaders = ["Content-Type": "application/octet-stream"]
            headers["X-Seen"] = request.headers["X-Custom"] ?? "none"
            headers["X-Method"] = request.method.rawValue
            return HTTPResponse(status: .created, headers: headers, body: request.body)
        }
        router.put("/echo") { request, _ in
            HTTPResponse(status: .ok, headers: ["X-Method": request.method.rawValue], body: request.body)
        }
        router.get("/large") { _, _ in .bytes(Data(repeating: 0x61, count: 100_000), contentType: "text/plain") }
        return router
    }

    static func client(_ configure: (inout HTTPClientConfiguration) -> Void = { _ in }) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration(schemes: ["http"], requestTimeout: .seconds(20))
        configure(&configuration)
        return try HTTPClient(configuration: configuration)
    }

    @Test func getReadsStatusHeadersAndBody() async throws {
        try await withServer(Self.router()) { server in
            let client = try Self.client()
            let response = try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:\(server.port)/hello")!))
            #expect(response.status == 200)
            #expect(response[header: "x-greeting"] == "hi")
            #expect(response[header: "X-GREETING"] == "hi")
            #expect(response.text == "hello")
            await client.shutdown()
        }
    }

    @Test(arguments: [("POST", 201), ("PUT", 200)])
    func bodiesAndHeadersArriveAsSent(method: String, status: Int) async throws {
        try await withServer(Self.router()) { server in
            let client = try Self.client()
            let body = Data((0...255).map { UInt8($0) } + [0, 0, 1])  // binary, NUL bytes included
            let request = HTTPClientRequest(
                method: method, url: URL(string: "http://127.0.0.1:\(server.port)/echo")!,
                headers: [(name: "X-Custom", value: "yes"), (name: "Content-Type", value: "application/octet-stream")], body: body
            )
            let response = try await client.send(request)
            #expect(response.status == status)
            #expect(response.body == body)
            #expect(response[header: "x-method"] == method)
            await client.shutdown()
        }
    }

    @Test func aBodyOverTheLimitIsAnErrorNotATruncatedAnswer() async throws {
        try await withServer(Self.router()) { server in
            let client = try Self.client { $0.maxResponseBody = 10_000 }
            await #expect(throws: HTTPClientError.responseTooLarge(server: "http://127.0.0.1:\(server.port)", limit: 10_000)) {
                try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:\(server.port)/large")!))
            }
            await client.shutdown()
        }
    }

    @Test(arguments: [("X-A", "1\r\nX-B: 2"), ("X-A", "1\nX-B: 2"), ("X-A\r\nX-B", "2"), ("X-A: 1", "2"), ("", "1")])
    func aHeaderThatIsNotOneFieldIsRefusedBeforeSending(name: String, value: String) async throws {
        let client = try Self.client()
        let request = HTTPClientRequest(url: URL(string: "http://127.0.0.1:1/")!, headers: [(name: name, value: value)])
        do {
            _ = try await client.send(request)
            Issue.record("sent a header named \(name.debugDescription)")
        } catch {
            guard case .invalidRequest(field: "headers", _) = error else { Issue.record("\(error)"); return }
        }
        await client.shutdown()
    }

    @Test(arguments: ["GE T", "G\u{C9}T", "", "GET\r\n"])
    func aMethodThatIsNotOneWordOfLettersIsRefused(method: String) async throws {
        let client = try Self.client()
        do {
            _ = try await client.send(HTTPClientRequest(method: method, url: URL(string: "http://127.0.0.1:1/")!))
            Issue.record("sent the method \(method.debugDescription)")
        } catch {
            guard case .invalidRequest(field: "method", _) = error else { Issue.record("\(error)"); return }
        }
        await client.shutdown()
    }

    @Test func aSchemeTheClientWasNotMadeForIsRefused() async throws {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(schemes: ["https"]))
        do {
            _ = try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:1/")!))
            Issue.record("an http URL was sent by an https-only client")
        } catch {
            guard case .invalidRequest(field: "url", _) = error else { Issue.record("\(error)"); return }
        }
        await client.shutdown()
    }

    @Test func nobodyListeningIsConnectFailedNamingTheServer() async throws {
        let client = try Self.client()
        do {
            _ = try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:1/secret-path")!))
            Issue.record("port 1 answered")
        } catch {
            guard case .connectFailed(server: "http://127.0.0.1:1", _) = error else { Issue.record("\(error)"); return }
            #expect(!error.description.contains("secret-path"), "errors name the origin, never the path")
        }
        await client.shutdown()
    }

    @Test func aShutDownClientRefusesNewRequests() async throws {
        let client = try Self.client()
        await client.shutdown()
        await #expect(throws: HTTPClientError.shutDown) {
            try await client.send(HTTPClientRequest(url: URL(string: "http://127.0.0.1:1/")!))
        }
    }
}
