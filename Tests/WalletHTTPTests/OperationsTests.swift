import Foundation
import PasswrightTesting
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
            // Every sample is a well-formed exposition line: a comment, or `name{labels} value` (a
            // metric name as Prometheus's data model allows it).
            let sample = try NSRegularExpression(pattern: #"^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-z]+="[^"]*"(,[a-z]+="[^"]*")*\})? [0-9.e+-]+$"#)
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
            // The console is a browser interface, not the API: its pages are listed in the README, not here.
            let routes = server.service.routes.filter { !$0.path.hasPrefix("/console") }
            #expect(routes.count >= 17, "the routes of the running service: \(routes.map(\.path))")
            // Compare by shape: a `:name` and a `{name}` segment match by position, whatever the names.
            func shape(_ path: String) -> String {
                path.split(separator: "/").map { $0.hasPrefix(":") || $0.hasPrefix("{") ? "{}" : String($0) }.joined(separator: "/")
            }
            let described = Dictionary(paths.map { (shape($0.key), Set(($0.value.object ?? [:]).keys.map { $0.lowercased() })) }) { $0.union($1) }
            for route in routes {
                #expect(route.operationID != nil, "\(route.method) \(route.path) has no operation id, so openapi.json leaves it out")
                #expect(described[shape(route.path)]?.contains(route.method.rawValue.lowercased()) == true, "\(route.method) \(route.path) is not in openapi.json")
            }
            #expect(Set(described.keys) == Set(routes.map { shape($0.path) }), "openapi.json describes no route that does not exist")
        }
    }

    @Test("the README lists every route the service registers, and no other")
    func readmeListsEveryRoute() async throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        func shape(_ path: String) -> String {
            let bare = path.split(separator: "?").first.map(String.init) ?? path
            return bare.split(separator: "/").map { $0.hasPrefix(":") || $0.hasPrefix("{") ? "{}" : String($0) }.joined(separator: "/")
        }
        let pattern = try Regex("`(GET|POST|PATCH|PUT|DELETE) (/[^`]*)`")
        let listed = Set(readme.matches(of: pattern).map { match in
            "\(match.output[1].substring ?? "") /\(shape(String(match.output[2].substring ?? "")))"
        })
        try await withService { server in
            let routes = Set(server.service.routes.map { "\($0.method.rawValue) /\(shape($0.path))" })
            #expect(routes.subtracting(listed).isEmpty, "routes the README does not list: \(routes.subtracting(listed).sorted())")
            #expect(listed.subtracting(routes).isEmpty, "README routes that do not exist: \(listed.subtracting(routes).sorted())")
        }
    }

    @Test("each operation in /openapi.json has the statuses the service answers, and every $ref resolves")
    func openAPIOperations() async throws {
        try await withService { server in
            let document = try JSONSerialization.jsonObject(with: try await server.client.send("GET", "/openapi.json").body) as? [String: Any]
            let paths = try (document?["paths"] as? [String: [String: [String: Any]]]).orThrow("no paths")
            var operations: [String: (method: String, path: String, statuses: [Int])] = [:]
            for (path, item) in paths {
                for (method, operation) in item {
                    let id = try (operation["operationId"] as? String).orThrow("\(method) \(path) has no operationId")
                    #expect(operations[id] == nil, "operationId \(id) is used twice")
                    let statuses = ((operation["responses"] as? [String: Any]) ?? [:]).keys.compactMap { Int($0) }.sorted()
                    operations[id] = (method.uppercased(), path, statuses)
                }
            }
            let expected: [String: (String, String, [Int])] = [
        "deviceLog": ("POST", "/wallet/v1/log", [200, 400, 413]),
        "downloadTemplateVersion": ("GET", "/api/v1/templates/{template}/versions/{version}", [200, 400, 401, 403, 404]),
        "getTemplate": ("GET", "/api/v1/templates/{template}", [200, 400, 401, 403, 404]),
        "rollbackTemplate": ("POST", "/api/v1/templates/{template}/rollback", [200, 400, 401, 403, 404, 413, 415, 422]),
        "uploadTemplate": ("PUT", "/api/v1/templates/{template}", [200, 201, 400, 401, 403, 413, 415, 422]),
        "deviceLogs": ("GET", "/api/v1/logs", [200, 400, 401, 403]),
        "holderPage": ("GET", "/passes/{passTypeIdentifier}/{serialNumber}", [200, 400, 403, 404, 410]),
        "downloadPass": ("GET", "/passes/{passTypeIdentifier}/{serialNumber}/pass.pkpass", [200, 400, 403, 404, 410]),
        "holderPicture": ("GET", "/passes/{passTypeIdentifier}/{serialNumber}/picture.png", [200, 304, 400, 403, 404, 410]),
        "holderCodePNG": ("GET", "/passes/{passTypeIdentifier}/{serialNumber}/qr.png", [200, 400, 403, 410]),
        "holderCodeSVG": ("GET", "/passes/{passTypeIdentifier}/{serialNumber}/qr.svg", [200, 400, 403, 410]),
        "holderAsset": ("GET", "/holder/{file}", [200, 400, 404]),
        "passLink": ("GET", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/link", [200, 400, 401, 403, 404]),
        "forcePush": ("POST", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/push", [202, 400, 401, 403, 404]),
        "getPass": ("GET", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}", [200, 400, 401, 403, 404]),
        "erasePass": ("DELETE", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}", [200, 400, 401, 403, 404]),
        "exportPass": ("GET", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/export", [200, 400, 401, 403, 404]),
        "eraseHolder": ("POST", "/api/v1/erasures", [200, 400, 401, 403, 413, 415, 422]),
        "exportHolder": ("POST", "/api/v1/exports", [200, 400, 401, 403, 413, 415, 422]),
        "getPassArchive": ("GET", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/pkpass", [200, 400, 401, 403, 404]),
        "health": ("GET", "/healthz", [200]),
        "issuePass": ("POST", "/api/v1/passes", [201, 400, 401, 403, 409, 413, 415, 422]),
        "latestPass": ("GET", "/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}", [200, 304, 400, 401]),
        "lintTemplate": ("POST", "/api/v1/templates/{template}/lint", [200, 400, 401, 403, 404]),
        "listTemplates": ("GET", "/api/v1/templates", [200, 401, 403]),
        "listOrderTemplates": ("GET", "/api/v1/order-templates", [200, 401, 403]),
        "uploadOrderTemplate": ("PUT", "/api/v1/order-templates/{template}", [200, 201, 400, 401, 403, 413, 415, 422]),
        "getOrderTemplate": ("GET", "/api/v1/order-templates/{template}", [200, 400, 401, 403, 404]),
        "downloadOrderTemplateVersion": ("GET", "/api/v1/order-templates/{template}/versions/{version}", [200, 400, 401, 403, 404]),
        "metrics": ("GET", "/metrics", [200]),
        "openapi": ("GET", "/openapi.json", [200]),
        "personalizePass": ("POST", "/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}/personalize", [200, 400, 404, 409, 413, 422]),
        "previewPass": ("GET", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}/preview", [200, 304, 400, 401, 403, 404]),
        "previewTemplate": ("POST", "/api/v1/templates/{template}/preview", [200, 400, 401, 403, 404, 413, 415, 422, 503]),
        "pushStats": ("GET", "/api/v1/push/stats", [200, 401, 403]),
        "ready": ("GET", "/readyz", [200, 503]),
        "registerDevice": ("POST", "/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}", [200, 201, 400, 401, 413]),
        "unregisterDevice": ("DELETE", "/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}", [200, 400, 401]),
        "updatePass": ("PATCH", "/api/v1/passes/{passTypeIdentifier}/{serialNumber}", [200, 400, 401, 403, 404, 409, 413, 415, 422]),
        "updateTemplatePasses": ("PATCH", "/api/v1/templates/{template}/passes", [200, 400, 401, 403, 409, 413, 415, 422]),
        "updatedSerials": ("GET", "/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}", [200, 204, 400]),
        "listEvents": ("GET", "/api/v1/events", [200, 401, 403, 422]),
        "listAudit": ("GET", "/api/v1/audit", [200, 401, 403, 422]),
        "getAnalytics": ("GET", "/api/v1/analytics", [200, 401, 403, 422]),
        "listWebhooks": ("GET", "/api/v1/webhooks", [200, 401, 403]),
        "createWebhook": ("POST", "/api/v1/webhooks", [201, 400, 401, 403, 413, 415, 422]),
        "deleteWebhook": ("DELETE", "/api/v1/webhooks/{webhook}", [204, 400, 401, 403, 404]),
        "getWebhook": ("GET", "/api/v1/webhooks/{webhook}", [200, 400, 401, 403, 404]),
        "updateWebhook": ("PATCH", "/api/v1/webhooks/{webhook}", [200, 400, 401, 403, 404, 413, 415, 422]),
        "listWebhookDeliveries": ("GET", "/api/v1/webhooks/{webhook}/deliveries", [200, 400, 401, 403, 404]),
        "replayWebhook": ("POST", "/api/v1/webhooks/{webhook}/replay", [202, 400, 401, 403, 404, 413, 415, 422]),
        "rotateWebhookSecret": ("POST", "/api/v1/webhooks/{webhook}/rotate-secret", [200, 400, 401, 403, 404, 413, 415, 422]),
        "createBulkJob": ("POST", "/api/v1/templates/{template}/jobs", [202, 400, 401, 403, 409, 413, 415, 422, 507]),
        "listBulkJobs": ("GET", "/api/v1/jobs", [200, 401, 403]),
        "getBulkJob": ("GET", "/api/v1/jobs/{job}", [200, 400, 401, 403, 404]),
        "getBulkJobResults": ("GET", "/api/v1/jobs/{job}/results", [200, 400, 401, 403, 404, 422]),
        "getBulkJobBundle": ("GET", "/api/v1/jobs/{job}/bundle", [200, 400, 401, 403, 404, 422]),
        "createAPIKey": ("POST", "/api/v1/keys", [201, 400, 401, 403, 413, 415, 422]),
        "listAPIKeys": ("GET", "/api/v1/keys", [200, 401, 403]),
        "getAPIKey": ("GET", "/api/v1/keys/{key}", [200, 400, 401, 403, 404]),
        "rotateAPIKey": ("POST", "/api/v1/keys/{key}/rotate", [200, 400, 401, 403, 404]),
        "revokeAPIKey": ("DELETE", "/api/v1/keys/{key}", [204, 400, 401, 403, 404]),
        "createOrder": ("POST", "/api/v1/orders", [201, 400, 401, 403, 409, 413, 415, 422, 503]),
        "listOrders": ("GET", "/api/v1/orders", [200, 401, 403, 422]),
        "getOrder": ("GET", "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}", [200, 400, 401, 403, 404]),
        "updateOrder": ("PATCH", "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}", [200, 400, 401, 403, 404, 409, 413, 415, 422]),
        "getOrderArchive": ("GET", "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}/order", [200, 400, 401, 403, 404]),
        "registerOrderDevice": ("POST", "/orders/v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}/{orderIdentifier}", [200, 201, 400, 401, 413]),
        "unregisterOrderDevice": ("DELETE", "/orders/v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}/{orderIdentifier}", [200, 400, 401]),
        "updatedOrders": ("GET", "/orders/v1/devices/{deviceIdentifier}/registrations/{orderTypeIdentifier}", [200, 204, 400]),
        "latestOrder": ("GET", "/orders/v1/orders/{orderTypeIdentifier}/{orderIdentifier}", [200, 304, 400, 401]),
        "orderDeviceLog": ("POST", "/orders/v1/log", [200, 400, 413]),
        "eraseOrder": ("DELETE", "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}", [200, 400, 401, 403, 404, 503]),
        "eraseOrderCustomer": ("POST", "/api/v1/orders/erasures", [200, 400, 401, 403, 413, 415, 422]),
        "exportOrder": ("GET", "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}/export", [200, 400, 401, 403, 404]),
        "exportOrderCustomer": ("POST", "/api/v1/orders/exports", [200, 400, 401, 403, 413, 415, 422]),
        "previewOrder": ("GET", "/api/v1/orders/{orderTypeIdentifier}/{orderIdentifier}/preview", [200, 304, 400, 401, 403, 404]),
            ]
            #expect(Set(operations.keys) == Set(expected.keys))
            for (id, (method, path, statuses)) in expected {
                #expect(operations[id]?.method == method, "\(id)")
                #expect(operations[id]?.path == path, "\(id)")
                #expect(operations[id]?.statuses == statuses, "\(id)")
            }
            // Every path parameter of a route is documented as required, in order, under its documented name.
            for (path, item) in paths {
                let names = path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
                for (method, operation) in item {
                    let parameters = (operation["parameters"] as? [[String: Any]]) ?? []
                    let inPath = parameters.filter { $0["in"] as? String == "path" }
                    #expect(inPath.compactMap { $0["name"] as? String } == names, "\(method) \(path)")
                    #expect(inPath.allSatisfy { $0["required"] as? Bool == true }, "\(method) \(path)")
                }
            }
            let schemas = try (((document?["components"] as? [String: Any])?["schemas"]) as? [String: Any]).orThrow("no schemas")
            let text = String(decoding: try JSONSerialization.data(withJSONObject: document ?? [:]), as: UTF8.self)
            let reference = try NSRegularExpression(pattern: ##""\$ref":"#\\/components\\/schemas\\/([A-Za-z]+)""##)
            let referenced = reference.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
            #expect(referenced.count > 40)
            for name in Set(referenced) { #expect(schemas[name] != nil, "$ref to a missing schema \(name)") }
        }
    }
}
