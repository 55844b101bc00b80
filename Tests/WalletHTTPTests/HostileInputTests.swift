import Foundation
import PasswrightTesting
import Testing

/// Bad and hostile input gets a 4xx with an RFC 9457 problem body, and the server keeps serving.
@Suite("Bad input")
struct HostileInputTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    /// Checks a problem response: status, media type and the four members; then that the server is healthy.
    static func expectProblem(_ response: RawResponse, _ status: Int, on server: TestService, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(response.status == status, "\(response)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/problem+json", "\(response)", sourceLocation: sourceLocation)
        let problem = try response.json()
        #expect(problem["type"].string != nil, sourceLocation: sourceLocation)
        #expect(problem["title"].string != nil, sourceLocation: sourceLocation)
        #expect(problem["status"].number == Double(status), sourceLocation: sourceLocation)
        #expect((problem["detail"].string)?.isEmpty == false, sourceLocation: sourceLocation)
        try await server.expectHealthy(sourceLocation: sourceLocation)
    }

    @Test("bodies the issuing API cannot use")
    func badBodies() async throws {
        try await withService { server in
            let cases: [(String, Data, Int)] = [
                ("malformed JSON", Data(#"{"template": "loyalty", "#.utf8), 400),
                ("not UTF-8", Data([0x7B, 0xFF, 0xFE, 0x7D]), 400),
                ("an array body", Data(#"[{"template":"loyalty"}]"#.utf8), 400),
                ("a string body", Data(#""loyalty""#.utf8), 400),
                ("data as a string", Data(#"{"template":"loyalty","data":"points=1"}"#.utf8), 400),
                ("template as a number", Data(#"{"template":42}"#.utf8), 400),
                ("an unknown member", Data(#"{"template":"loyalty","dta":{}}"#.utf8), 422),
                ("an unknown template", Data(#"{"template":"../../etc/passwd","data":{}}"#.utf8), 422),
                ("a missing template", Data(#"{"data":{}}"#.utf8), 422),
            ]
            for (name, body, status) in cases {
                let response = try await server.client.send("POST", "/api/v1/passes", headers: server.admin, body: body)
                try await Self.expectProblem(response, status, on: server)
                #expect(response.status == status, "\(name)")
            }
            _ = try await server.issue(serial: "P-1")
            let patch = try await server.client.send("PATCH", "/api/v1/passes/\(Self.loyalty)/P-1", headers: server.admin, body: Data(#"{"voided":"yes"}"#.utf8))
            try await Self.expectProblem(patch, 400, on: server)
            let empty = try await server.client.send("PATCH", "/api/v1/passes/\(Self.loyalty)/P-1", headers: server.admin, body: Data("{}".utf8))
            try await Self.expectProblem(empty, 422, on: server)
        }
    }

    @Test("wrong Content-Type is 415 and a body over the route limit is 413")
    func mediaTypeAndSize() async throws {
        try await withService { server in
            let auth = [("Authorization", "Bearer \(server.adminToken)")]
            let json = Data(#"{"template":"loyalty"}"#.utf8)
            for type in ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"] {
                try await Self.expectProblem(try await server.client.send("POST", "/api/v1/passes", headers: auth + [("Content-Type", type)], body: json), 415, on: server)
            }
            try await Self.expectProblem(try await server.client.send("POST", "/api/v1/passes", headers: auth, body: json), 415, on: server)

            // Declared too large by a client waiting for 100 Continue: refused before any body byte.
            // (A client that sends its body gets the 413 after the body, read and dropped.)
            let declared = try await server.client.send("POST", "/api/v1/passes", headers: server.admin + [("Content-Length", String(300 << 10)), ("Expect", "100-continue")])
            try await Self.expectProblem(declared, 413, on: server)
            // Sent too large: 300 KB of JSON to a 256 KB route.
            let big = Data(("{\"template\":\"loyalty\",\"data\":{\"pad\":\"" + String(repeating: "x", count: 300 << 10) + "\"}}").utf8)
            try await Self.expectProblem(try await server.client.send("POST", "/api/v1/passes", headers: server.admin, body: big), 413, on: server)
            // The device log route is smaller (64 KB).
            let log = Data(("{\"logs\":[\"" + String(repeating: "y", count: 70 << 10) + "\"]}").utf8)
            try await Self.expectProblem(try await server.client.send("POST", "/wallet/v1/log", headers: [("Content-Type", "application/json")], body: log), 413, on: server)
        }
    }

    @Test("a missing or wrong admin token is 401 with WWW-Authenticate")
    func adminToken() async throws {
        try await withService { server in
            let body = JSON.object(["template": "loyalty", "serialNumber": "X-1", "data": try Samples.record("loyalty")]).data
            let headerSets: [[(String, String)]] = [
                [],
                [("Authorization", "Bearer wrong")],
                [("Authorization", "Bearer \(server.adminToken)x")],
                [("Authorization", "Bearer \(server.adminToken.dropLast())")],
                [("Authorization", "bearer\(server.adminToken)")],
                [("Authorization", "ApplePass \(server.adminToken)")],
            ]
            for headers in headerSets {
                for (method, path) in [("POST", "/api/v1/passes"), ("GET", "/api/v1/templates"), ("GET", "/api/v1/logs")] {
                    let response = try await server.client.send(method, path, headers: headers + [("Content-Type", "application/json")], body: method == "POST" ? body : nil)
                    try await Self.expectProblem(response, 401, on: server)
                    #expect(response.header("WWW-Authenticate") == "Bearer")
                }
            }
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/X-1").status == 404, "nothing was issued")
        }
    }

    @Test("a missing or wrong ApplePass token and an unknown serial answer the same 401")
    func passToken() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "W-1", data: try Samples.record("loyalty", authenticationToken: "right-token-0123456789"))
            let register = Data(#"{"pushToken":"abcdef"}"#.utf8)
            var bodies: Set<Data> = []
            for (serial, authorization) in [("W-1", nil), ("W-1", "ApplePass wrong-token-0123456789"), ("W-1", "ApplePass right-token-012345678"),
                                            ("W-1", "Bearer right-token-0123456789"), ("NOPE", "ApplePass right-token-0123456789"), ("NOPE", nil)] {
                let headers = authorization.map { [("Authorization", $0)] } ?? []
                let paths = [("GET", "/wallet/v1/passes/\(Self.loyalty)/\(serial)", nil as Data?),
                             ("POST", "/wallet/v1/devices/d1/registrations/\(Self.loyalty)/\(serial)", register),
                             ("DELETE", "/wallet/v1/devices/d1/registrations/\(Self.loyalty)/\(serial)", nil)]
                for (method, path, body) in paths {
                    let response = try await server.client.send(method, path, headers: headers, body: body)
                    try await Self.expectProblem(response, 401, on: server)
                    bodies.insert(response.body)
                }
            }
            #expect(bodies.count == 1, "every 401 has the same body, so it tells nothing about which serials exist")
            let right = try await server.client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/W-1", headers: [("Authorization", "ApplePass right-token-0123456789")])
            #expect(right.status == 200)
            let alternative = try await server.client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/W-1", headers: [("Authorization", "WalletPass right-token-0123456789")])
            #expect(alternative.status == 200)
        }
    }

    @Test("path parameters with .., %00, %2F or 10 KB of text are 400")
    func hostilePathParameters() async throws {
        try await withService { server in
            let auth = server.admin
            let long = String(repeating: "A", count: 10 << 10)
            for serial in ["..", ".", "%2E%2E", "a%00b", "a%2Fb", "%2F..%2F..%2Fetc%2Fpasswd", long, "%FF%FE"] {
                for (method, path, headers) in [
                    ("GET", "/api/v1/passes/\(Self.loyalty)/\(serial)", auth),
                    ("GET", "/wallet/v1/passes/\(Self.loyalty)/\(serial)", [("Authorization", "ApplePass x")]),
                    ("GET", "/wallet/v1/devices/\(serial)/registrations/\(Self.loyalty)", []),
                    ("GET", "/passes/\(Self.loyalty)/\(serial)?expires=1&signature=00", []),
                ] {
                    let response = try await server.client.send(method, path, headers: headers)
                    try await Self.expectProblem(response, 400, on: server)
                    #expect(response.status == 400, "\(method) \(path.prefix(120))")
                }
            }
        }
    }

    @Test("a push token that is not hex, or no push token, is 400")
    func badPushToken() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "PT-1", data: try Samples.record("loyalty", authenticationToken: "push-token-test-0123456789"))
            let path = "/wallet/v1/devices/d1/registrations/\(Self.loyalty)/PT-1"
            let auth = [("Authorization", "ApplePass push-token-test-0123456789")]
            let long = String(repeating: "a", count: 257)
            for body in [#"{"pushToken":"xyz"}"#, #"{"pushToken":""}"#, #"{"pushToken":"ab cd"}"#, #"{"pushToken":"ab'; DROP TABLE devices;--"}"#, #"{"pushToken":"ab\u00e9"}"#,
                         #"{"pushToken":12}"#, #"{}"#, #"[]"#, "not json", #"{"pushToken":"\#(long)"}"#] {
                let response = try await server.client.send("POST", path, headers: auth, body: Data(body.utf8))
                try await Self.expectProblem(response, 400, on: server)
                #expect(response.status == 400, "\(body.prefix(60))")
            }
            #expect(try await server.service.store.registeredDevices(for: .init(passTypeIdentifier: Self.loyalty, serialNumber: "PT-1")).isEmpty)
        }
    }

    @Test("a serial number with '/' or NUL, or too long, is 422 whether it comes in the body or in data")
    func badSerialNumbers() async throws {
        try await withService { server in
            for serial in ["a/b", "a\u{0}b", String(repeating: "s", count: 257), ""] {
                var inData = try Samples.record("loyalty")
                inData["serialNumber"] = .string(serial)
                for request: JSON in [["template": "loyalty", "serialNumber": .string(serial), "data": try Samples.record("loyalty")],
                                      ["template": "loyalty", "data": inData]] where !(serial.isEmpty && request["serialNumber"].isNull) {
                    let response = try await server.api("POST", "/api/v1/passes", json: request)
                    try await Self.expectProblem(response, 422, on: server)
                    #expect(response.status == 422, "serial \(serial.debugDescription.prefix(40)) in \(request["serialNumber"].isNull ? "data" : "the body")")
                }
            }
            let listed = try await server.service.store.passes(template: "loyalty")
            #expect(listed.isEmpty, "no pass was stored: \(listed)")
        }
    }

    @Test("SQL metacharacters in serial numbers and data are stored and returned verbatim", arguments: Engine.selected)
    func sqlMetacharacters(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let serial = #"x'); DROP TABLE passes;-- "\ %_ ;"#
            var record = try Samples.record("loyalty")
            record["tier"] = .string(#"Gold'; DELETE FROM passes WHERE '1'='1"#)
            record["member"] = ["id": .string(#"id" OR 1=1 --"#), "name": "Robert'); DROP TABLE registrations;--"]
            let issued = try await server.issue(serial: serial, data: record)
            #expect(issued["serialNumber"].string == serial)
            let read = try await server.api("GET", "/api/v1/passes/\(escape(Self.loyalty))/\(escape(serial))")
            #expect(read.status == 200, "\(read)")
            let stored = try read.json()
            #expect(stored["serialNumber"].string == serial)
            let data = stored["data"]
            #expect(data["tier"] == record["tier"])
            #expect(data["member"]["name"].string == "Robert'); DROP TABLE registrations;--")
            let pass = try await server.servedPass(Self.loyalty, serial)
            #expect(pass.passJSON["serialNumber"].string == serial)
            #expect(pass.fieldValue("tier") == record["tier"])
            // The tables are all still there: a second pass issues and a template lists both.
            _ = try await server.issue(serial: "after")
            let updated = try await server.api("PATCH", "/api/v1/templates/loyalty/passes", json: ["data": ["points": 7]]).json()
            #expect(updated["matched"].number == 2)
        }
    }
}
