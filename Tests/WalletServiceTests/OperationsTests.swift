import Foundation
import Testing

/// What operators and load balancers call: health, readiness, Prometheus metrics, OpenAPI.
@Suite("Operations endpoints")
struct OperationsTests {
    @Test("healthz and readyz answer 200", arguments: Engine.selected)
    func health(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let health = try await server.client.send("GET", "/healthz")
            #expect(health.status == 200)
            #expect(try health.json()["status"].string == "ok")
            let ready = try await server.client.send("GET", "/readyz")
            #expect(ready.status == 200)
            #expect(try ready.json()["database"].string == "ok")
        }
    }

    @Test("/metrics counts requests by route pattern, times them, and counts issued passes")
    func metrics() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "M-1", data: try Samples.record("loyalty", authenticationToken: "metrics-token-0123456789"))
            _ = try await server.issue(serial: "M-2")
            let fetched = try await server.client.send("GET", "/wallet/v1/passes/pass.dev.passwright.loyalty/M-1", headers: [("Authorization", "ApplePass metrics-token-0123456789")])
            #expect(fetched.status == 200)
            let response = try await server.client.send("GET", "/metrics")
            #expect(response.status == 200)
            #expect(response.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let lines = response.text.split(separator: "\n").map(String.init)
            #expect(lines.contains(#"passwright_http_requests_total{route="/wallet/v1/passes/:passType/:serial",method="GET",status="200"} 1"#), "\(response.text)")
            #expect(lines.contains(#"passwright_http_requests_total{route="/api/v1/passes",method="POST",status="201"} 2"#))
            #expect(lines.contains("# TYPE passwright_http_request_duration_seconds histogram"))
            #expect(lines.contains(#"passwright_http_request_duration_seconds_bucket{route="/wallet/v1/passes/:passType/:serial",le="+Inf"} 1"#))
            #expect(lines.contains(#"passwright_http_request_duration_seconds_count{route="/wallet/v1/passes/:passType/:serial"} 1"#))
            #expect(lines.contains { $0.hasPrefix(#"passwright_http_request_duration_seconds_sum{route="/wallet/v1/passes/:passType/:serial"} "#) })
            #expect(lines.contains("# TYPE passwright_passes_issued_total counter"))
            #expect(lines.contains("passwright_passes_issued_total 2"))
            #expect(lines.contains("passwright_templates_ready 6.0") || lines.contains("passwright_templates_ready 6"))
            #expect(!response.text.contains("M-1"), "serial numbers never become labels")
            // Every sample is a well-formed exposition line: a comment, or `name{labels} value`.
            let sample = try NSRegularExpression(pattern: #"^[a-z_]+(\{[a-z]+="[^"]*"(,[a-z]+="[^"]*")*\})? [0-9.e+-]+$"#)
            for line in lines where !line.hasPrefix("#") {
                #expect(sample.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil, "bad metrics line: \(line)")
            }
        }
    }

    @Test("/openapi.json is OpenAPI 3.1.0 and describes every route the service registers")
    func openAPI() async throws {
        try await withService { server in
            let response = try await server.client.send("GET", "/openapi.json")
            #expect(response.status == 200)
            let document = try response.json()
            #expect(document["openapi"].string == "3.1.0")
            let paths = try document["paths"].object.orThrow("no paths")
            let routes = try RegisteredRoutes.read()
            #expect(routes.count >= 17, "the route list was read from Sources/WalletService: \(routes)")
            // Compare by shape: a `:name` and a `{name}` segment match by position, whatever the names.
            func shape(_ path: String) -> String {
                path.split(separator: "/").map { $0.hasPrefix(":") || $0.hasPrefix("{") ? "{}" : String($0) }.joined(separator: "/")
            }
            let described = Dictionary(paths.map { (shape($0.key), Set(($0.value.object ?? [:]).keys.map { $0.lowercased() })) }) { $0.union($1) }
            for route in routes {
                #expect(described[shape(route.path)]?.contains(route.method.lowercased()) == true, "\(route.method) \(route.path) is not in openapi.json")
            }
            #expect(Set(described.keys) == Set(routes.map { shape($0.path) }), "openapi.json describes no route that does not exist")
        }
    }
}

/// The routes the service registers, read from its source files (`Sources/WalletService/Routes` and
/// `Operations`), so a new route without an OpenAPI entry fails the test above.
enum RegisteredRoutes {
    struct Route: CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }
    }

    static func read() throws -> [Route] {
        let sources = Samples.packageRoot.appendingPathComponent("Sources/WalletService")
        // `table.add(.get, "/healthz")`, `table.addAdmin(.post, "/api/v1/passes", …)`, and the Wallet
        // routes written as `"\(prefix)/devices/…"` with `let prefix = "/wallet/v1"`.
        let call = try NSRegularExpression(pattern: #"table\.add(?:Admin)?\(\.([a-z]+), "([^"]+)""#)
        let prefixDeclaration = try NSRegularExpression(pattern: #"let prefix = "([^"]+)""#)
        var routes: [Route] = []
        for folder in ["Routes", "Operations"] {
            let url = sources.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".swift") {
                let text = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                let whole = NSRange(text.startIndex..., in: text)
                let prefix = prefixDeclaration.firstMatch(in: text, range: whole).flatMap { Range($0.range(at: 1), in: text) }.map { String(text[$0]) }
                for match in call.matches(in: text, range: whole) {
                    let method = String(text[Range(match.range(at: 1), in: text)!]).uppercased()
                    var path = String(text[Range(match.range(at: 2), in: text)!])
                    if path.hasPrefix(#"\(prefix)"#) {
                        path = try prefix.orThrow("\(name) uses \\(prefix) without declaring it") + path.dropFirst(#"\(prefix)"#.count)
                    }
                    routes.append(Route(method: method, path: path))
                }
            }
        }
        return routes
    }
}
