import Foundation
import HTTPServer
import PasswrightTesting
import Synchronization
import Testing

/// Routing, decoding and problem bodies through a real server on 127.0.0.1.
@Suite struct ServerRoutingTests {
    struct Echo: Codable, Equatable {
        var serial: String
        var tags: [String]
    }

    static func router(handlerCalls: Counter = Counter()) -> Router {
        var router = Router()
        router.get("/wallet/v1/passes/:passTypeIdentifier/:serialNumber") { request, context in
            handlerCalls.increment()
            return try .json([
                "type": context.parameters["passTypeIdentifier"] ?? "", "serial": context.parameters["serialNumber"] ?? "",
            ])
        }
        router.get("/query") { request, context in
            try .json(request.queryItems.map { [$0.name, $0.value] })
        }
        router.get("/headers") { request, context in
            try .json([
                "authorization": [request.headers["authorization"] ?? ""],
                "tags": request.headers.values(for: "x-tag"),
                "remote": [request.remoteAddress ?? ""],
            ])
        }
        router.post("/echo") { request, context in
            let echo = try JSONDecoder().decode(Echo.self, from: request.body)
            return try .json(echo, status: .created)
        }
        return router
    }

    @Test func routesWithPathParameters() async throws {
        let response = try await withServer(Self.router()) { client in
            try await client.request("GET", "//wallet/v1/passes/pass.com.example.ticket/SN%2042/")
        }
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        let body = try JSONDecoder().decode([String: String].self, from: response.body)
        #expect(body == ["type": "pass.com.example.ticket", "serial": "SN 42"])
    }

    @Test func unknownPathIs404AndOtherMethodIs405WithAllow() async throws {
        try await withServer(Self.router()) { client in
            let missing = try await client.request("GET", "/wallet/v2/nothing")
            #expect(missing.status == 404)
            #expect(missing.header("content-type") == "application/problem+json")
            let problem = try JSONDecoder().decode(HTTPProblem.self, from: missing.body)
            #expect(problem == HTTPProblem(title: "Not Found", status: 404, detail: "No resource at /wallet/v2/nothing."))

            let wrongMethod = try await client.request("DELETE", "/echo")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("allow") == "POST")
        }
    }

    @Test func decodesQueryItems() async throws {
        let response = try await withServer(Self.router()) { client in
            try await client.request("GET", "/query?name=J%C3%BCrgen&tag=a&tag=b+c&flag")
        }
        let items = try JSONDecoder().decode([[String]].self, from: response.body)
        #expect(items == [["name", "Jürgen"], ["tag", "a"], ["tag", "b c"], ["flag", ""]])
    }

    @Test func headersAreCaseInsensitiveAndDuplicatesKept() async throws {
        let response = try await withServer(Self.router()) { client in
            try await client.request("GET", "/headers", headers: [("AUTHORIZATION", "ApplePass t0k3n"), ("X-Tag", "one"), ("x-tag", "two")])
        }
        let body = try JSONDecoder().decode([String: [String]].self, from: response.body)
        #expect(body["authorization"] == ["ApplePass t0k3n"])
        #expect(body["tags"] == ["one", "two"])
        #expect(body["remote"] == ["127.0.0.1"])
    }

    @Test func echoesJSONBody() async throws {
        let sent = Echo(serial: "E-1", tags: ["a", "ü"])
        let response = try await withServer(Self.router()) { client in
            try await client.request("POST", "/echo", headers: [("Content-Type", "application/json")], body: try JSONEncoder().encode(sent))
        }
        #expect(response.status == 201)
        #expect(try JSONDecoder().decode(Echo.self, from: response.body) == sent)
    }

    @Test func headIsAnsweredWithoutBody() async throws {
        let response = try await withServer(Self.router()) { client in
            try await client.request("HEAD", "/wallet/v1/passes/a/b")
        }
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
    }

    @Test(arguments: ["%00", "a%00", "..", "%2E%2e", "x%2Fy", String(repeating: "s", count: 10 * 1024)])
    func unsafePathParameterIs400BeforeTheHandler(serial: String) async throws {
        let calls = Counter()
        let response = try await withServer(Self.router(handlerCalls: calls)) { client in
            try await client.request("GET", "/wallet/v1/passes/pass.x/\(serial)")
        }
        #expect(response.status == 400)
        #expect(response.header("content-type") == "application/problem+json")
        let problem = try JSONDecoder().decode(HTTPProblem.self, from: response.body)
        #expect(problem.status == 400)
        #expect(problem.detail?.contains("serialNumber") == true)
        #expect(calls.count == 0)
    }
}
