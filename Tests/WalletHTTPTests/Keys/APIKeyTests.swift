import Foundation
import HTTPServer
import PasswrightTesting
import Storage
import Testing
@testable import WalletCore
import WalletHTTP
@testable import WalletStore

/// API keys with scopes: every admin route declares one scope, which is enough and which no other
/// scope replaces; no key is 401; a key limited to a template cannot touch another's passes; revoked,
/// rotated and expired keys stop working; the database never holds a key.
@Suite(.timeLimit(.minutes(3))) struct APIKeyTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    /// Creates a key through the API with the admin token; returns its text and id.
    static func key(_ server: TestService, scopes: [String], templates: [String]? = nil, expiresAt: String? = nil) async throws -> (text: String, id: String) {
        var body: JSON = ["name": "test key", "scopes": .array(scopes.map(JSON.string))]
        if let templates { body["templates"] = .array(templates.map(JSON.string)) }
        if let expiresAt { body["expiresAt"] = .string(expiresAt) }
        let created = try await server.api("POST", "/api/v1/keys", json: body)
        try #require(created.status == 201, "\(created)")
        let json = try created.json()
        return (try #require(json["secret"].string), try #require(json["key"]["id"].string))
    }

    static func call(_ server: TestService, _ method: String, _ target: String, key: String?, body: Data? = nil) async throws -> RawResponse {
        var headers = [("Content-Type", "application/json")]
        if let key { headers.append(("Authorization", "Bearer \(key)")) }
        return try await server.client.send(method, target, headers: headers, body: body ?? (["POST", "PUT", "PATCH"].contains(method) ? Data("{}".utf8) : nil))
    }

    /// A route's path with its parameters filled in with things that exist where that matters.
    static func target(_ route: Route, serial: String, job: String) -> String {
        route.path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            switch segment {
            case ":template": "loyalty"
            case ":passType": loyalty
            case ":serial": serial
            case ":job": job
            case ":version": "1"
            case ":webhook": "whep_missing"
            case ":key": "nokeyatall00"
            default: String(segment)
            }
        }.joined(separator: "/")
    }

    @Test func everyRouteNeedsItsScopeAndNoOther() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "SCOPE-1")
            let job = try await server.client.send(
                "POST", "/api/v1/templates/loyalty/jobs", headers: [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", "application/jsonl")],
                body: Data("{\"serialNumber\":\"SCOPE-J\",\"member\":{\"id\":\"1\",\"name\":\"A\"},\"points\":1,\"tier\":\"Gold\"}\n".utf8))
            let jobID = try #require(try job.json()["id"].string)
            var keys: [APIScope: String] = [:]
            for scope in APIScope.allCases { keys[scope] = try await Self.key(server, scopes: [scope.rawValue]).text }
            let forged = "pw_abcdefghijkl_" + String(repeating: "A", count: 38)

            var checked = 0
            for route in server.service.routes {
                guard let auth = route.auth, let name = auth.scopes.first, let needed = APIScope(rawValue: name) else { continue }
                #expect(auth.scopes.count == 1, "\(route.method) \(route.path) declares one scope")
                let target = Self.target(route, serial: "SCOPE-1", job: jobID)
                let method = route.method.rawValue
                let none = try await Self.call(server, method, target, key: nil)
                #expect(none.status == 401, "\(method) \(target) without a key: \(none)")
                #expect(try await Self.call(server, method, target, key: forged).status == 401, "\(method) \(target) with a forged key")
                for scope in APIScope.allCases {
                    let answer = try await Self.call(server, method, target, key: keys[scope])
                    if scope == needed {
                        #expect(answer.status != 401 && answer.status != 403, "\(method) \(target) with \(scope.rawValue): \(answer)")
                    } else {
                        #expect(answer.status == 403 && answer.text.contains(needed.rawValue), "\(method) \(target) with \(scope.rawValue): \(answer)")
                    }
                }
                checked += 1
            }
            let adminRoutes = server.service.routes.filter { $0.path.hasPrefix("/api/v1/") }.count
            #expect(checked == adminRoutes && checked >= 35, "every admin route declares a scope and was walked: \(checked) of \(adminRoutes)")
            // The document says the same.
            let document = try await server.client.send("GET", "/openapi.json").json()
            #expect(document["paths"]["/api/v1/passes"]["post"]["security"][0]["apiKey"] == ["passes:issue"])
            #expect(document["paths"]["/api/v1/keys"]["get"]["responses"]["403"] != .null)
        }
    }

    @Test func aKeyLimitedToATemplateCannotTouchAnothersPasses() async throws {
        try await withService { server in
            _ = try await server.issue(serial: "LIM-1")
            _ = try await server.issue(template: "coupon", serial: "LIM-C")
            let key = try await Self.key(server, scopes: ["passes:read", "passes:write", "passes:issue"], templates: ["coupon"]).text
            #expect(try await Self.call(server, "GET", "/api/v1/passes/\(Self.loyalty)/LIM-1", key: key).status == 403)
            #expect(try await Self.call(server, "PATCH", "/api/v1/passes/\(Self.loyalty)/LIM-1", key: key, body: Data(#"{"data":{"points":1}}"#.utf8)).status == 403)
            #expect(try await Self.call(server, "PATCH", "/api/v1/templates/loyalty/passes", key: key, body: Data(#"{"data":{"points":1}}"#.utf8)).status == 403)
            let body: JSON = ["template": "loyalty", "serialNumber": "LIM-2", "data": try Samples.record("loyalty")]
            let issue = try await Self.call(server, "POST", "/api/v1/passes", key: key, body: body.data)
            #expect(issue.status == 403 && issue.text.contains("loyalty"), "\(issue)")
            let passes = try await server.service.store.passes(template: "coupon")
            let couponKey = try #require(passes.first?.key)
            #expect(try await Self.call(server, "GET", "/api/v1/passes/\(couponKey.passTypeIdentifier)/\(couponKey.serialNumber)", key: key).status == 200)
        }
    }

    @Test func revokedRotatedAndExpiredKeysStopWorkingAndNoneIsStored() async throws {
        try await withService { server in
            let (text, id) = try await Self.key(server, scopes: ["templates:read"])
            #expect(try await Self.call(server, "GET", "/api/v1/templates", key: text).status == 200)
            let details = try await server.api("GET", "/api/v1/keys/\(id)").json()
            #expect(details["state"] == "active" && details["lastUsedAddress"] == "127.0.0.1" && details["lastUsedAt"] != .null, "\(details)")

            let rotated = try await server.api("POST", "/api/v1/keys/\(id)/rotate").json()
            let newText = try #require(rotated["secret"].string)
            #expect(newText != text && newText.hasPrefix("pw_\(id)_"))
            #expect(try await Self.call(server, "GET", "/api/v1/templates", key: text).status == 401, "the old secret stopped working")
            #expect(try await Self.call(server, "GET", "/api/v1/templates", key: newText).status == 200)

            #expect(try await server.api("DELETE", "/api/v1/keys/\(id)").status == 204)
            #expect(try await Self.call(server, "GET", "/api/v1/templates", key: newText).status == 401)
            #expect(try await server.api("DELETE", "/api/v1/keys/\(id)").status == 404, "revoked already")
            #expect(try await server.api("GET", "/api/v1/keys/\(id)").json()["state"] == "revoked")

            // A key past its expiry: made with an hour to live, then its expiry moved into the past in the
            // database (as the clock would), and read again once the cache's two seconds have passed.
            let later = Date().addingTimeInterval(3600).formatted(.iso8601)
            let (expiring, expiringID) = try await Self.key(server, scopes: ["templates:read"], expiresAt: later)
            #expect(try await Self.call(server, "GET", "/api/v1/templates", key: expiring).status == 200)
            _ = try await server.service.store.database.execute(SQL("UPDATE api_keys SET expires_at = 1000 WHERE id = ?", .text(expiringID)))
            try await Task.sleep(for: .milliseconds(2_200))
            #expect(try await Self.call(server, "GET", "/api/v1/templates", key: expiring).status == 401)
            #expect(try await server.api("GET", "/api/v1/keys/\(expiringID)").json()["state"] == "expired")

            // What a key does is told apart from the admin token's in the event log; so is the key's own life.
            let issuer = try await Self.key(server, scopes: ["passes:issue"])
            let body: JSON = ["template": "loyalty", "serialNumber": "BY-KEY", "data": try Samples.record("loyalty")]
            #expect(try await Self.call(server, "POST", "/api/v1/passes", key: issuer.text, body: body.data).status == 201)
            let issued = try await EventAPITests.events(server, query: "&type=pass.issued", count: 1).events
            #expect(issued.first { $0["serialNumber"] == "BY-KEY" }?["actor"] == .string("key \(issuer.id)"))
            let lifecycle = try await EventAPITests.events(server, query: "&type=key.created,key.rotated,key.revoked", count: 5).events
            #expect(lifecycle.map { $0["type"].string ?? "" }.filter { $0 != "key.created" } == ["key.rotated", "key.revoked"], "\(lifecycle)")
            #expect(lifecycle.allSatisfy { $0["actor"] == "api" } && !lifecycle.contains { $0.description.contains(newText) })

            let refused = try await server.api("POST", "/api/v1/keys", json: ["name": "x", "scopes": ["passes:everything"]])
            #expect(refused.status == 422 && refused.text.contains("passes:everything"))

            // Only hashes are stored: no key's secret is anywhere in the database.
            let rows = try await server.service.store.apiKeys()
            for key in [text, newText, expiring] {
                let secret = String(key.split(separator: "_")[2].prefix(32))
                #expect(!rows.contains { $0.secretHash.contains(secret) || $0.name.contains(secret) })
            }
        }
    }

    @Test func keyTextsCarryACheckThatCatchesATypo() {
        let token = APIKeyToken.generate()
        #expect(APIKeyToken(token.text) == token)
        var typo = Array(token.text)
        typo[20] = typo[20] == "a" ? "b" : "a"
        #expect(APIKeyToken(String(typo)) == nil, "one changed character fails the check")
        #expect(APIKeyToken("pw_short") == nil && APIKeyToken(token.text + "x") == nil)
        #expect(token.text.hasPrefix("pw_") && token.text.count == 3 + 12 + 1 + 38)
    }
}
