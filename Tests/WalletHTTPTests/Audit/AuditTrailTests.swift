import Foundation
import PasswrightTesting
import Testing
import WalletCore
import WalletHTTP

/// `GET /api/v1/audit` on a running service: each write through the API names its key, source and
/// address, the names of what changed and never a value; filters and paging; refusals name what is
/// wrong. On both engines.
@Suite(.timeLimit(.minutes(5))) struct AuditTrailTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    static func send(_ server: TestService, _ method: String, _ target: String, key: String, agent: String? = nil, json: JSON? = nil) async throws -> RawResponse {
        var headers = [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")]
        if let agent { headers.append(("User-Agent", agent)) }
        return try await server.client.send(method, target, headers: headers, body: json?.data)
    }

    @Test(arguments: Engine.selected)
    func everyWriteNamesItsAuthorAndWhatChangedButNoValue(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let created = try await server.api("POST", "/api/v1/keys", json: [
                "name": "crm", "scopes": ["passes:issue", "passes:write", "webhooks:manage", "audit:read"],
            ])
            try #require(created.status == 201, "\(created)")
            let key = try #require(try created.json()["secret"].string)
            let keyID = try #require(try created.json()["key"]["id"].string)
            let actor = "key \(keyID)"
            let target = "pass \(Self.loyalty)/AUD-1"

            let issued = try await Self.send(server, "POST", "/api/v1/passes", key: key, agent: "passwright-cli/0.1.0", json: [
                "template": "loyalty", "serialNumber": "AUD-1", "data": try Samples.record("loyalty"),
            ])
            #expect(issued.status == 201, "\(issued)")
            let patched = try await Self.send(server, "PATCH", "/api/v1/passes/\(Self.loyalty)/AUD-1", key: key, json: ["data": ["points": 4242]])
            #expect(patched.status == 200, "\(patched)")
            let voided = try await Self.send(server, "PATCH", "/api/v1/passes/\(Self.loyalty)/AUD-1", key: key, json: ["voided": true])
            #expect(voided.status == 200, "\(voided)")
            let hook = try await Self.send(server, "POST", "/api/v1/webhooks", key: key, json: ["url": "https://hooks.example.test/passwright"])
            #expect(hook.status == 201, "\(hook)")
            #expect(try await server.api("POST", "/api/v1/passes/\(Self.loyalty)/AUD-1/push").status == 202)

            // Newest first; the pass's own rows, by the key, from this address.
            let forPass = try await Self.send(server, "GET", "/api/v1/audit?target=\(QueryComponent.escaped(target))", key: key)
            #expect(forPass.status == 200, "\(forPass)")
            let rows = try forPass.json()["entries"].array ?? []
            #expect(rows.map { $0["action"].string } == ["push.send", "pass.void", "pass.update", "pass.issue"], "\(forPass.text)")
            #expect(rows.map { $0["actor"].string } == ["api", actor, actor, actor])
            #expect(rows.map { $0["source"].string } == ["api", "api", "api", "cli"])
            #expect(rows.allSatisfy { $0["address"].string == "127.0.0.1" })
            #expect(rows[2]["changes"] == ["data.points"])
            #expect(rows[1]["changes"] == ["voided"])
            #expect(rows[3]["changes"] == ["data.member", "data.points", "data.serialNumber", "data.tier"])

            // Everything the trail holds: names, never the holder's values.
            let all = try await Self.send(server, "GET", "/api/v1/audit?limit=500", key: key)
            #expect(all.status == 200)
            for value in ["Ada Okafor", "BL-7731-0001", "4242", "1280", "hooks.example.test", key] {
                #expect(!all.text.contains(value), "the audit trail holds '\(value)'")
            }
            let actions = Set((try all.json()["entries"].array ?? []).compactMap { $0["action"].string })
            #expect(actions.isSuperset(of: ["key.create", "pass.issue", "pass.update", "pass.void", "webhook.create", "push.send"]), "\(actions)")

            // Filters narrow, and a page's next (and its Link) reads on without repeats.
            let fromCLI = try await Self.send(server, "GET", "/api/v1/audit?source=cli", key: key)
            #expect((try fromCLI.json()["entries"].array ?? []).map { $0["action"].string } == ["pass.issue"])
            let byKey = try await Self.send(server, "GET", "/api/v1/audit?actor=\(actor.replacingOccurrences(of: " ", with: "%20"))&limit=2", key: key)
            let first = try byKey.json()
            #expect((first["entries"].array ?? []).map { $0["action"].string } == ["webhook.create", "pass.void"])
            let next = try #require(first["next"].string)
            let link = try #require(byKey.header("Link"), "a next page has a Link header")
            #expect(link.contains("before=\(next)") && link.contains("rel=\"next\""), "\(link)")
            let second = try await Self.send(server, "GET", "/api/v1/audit?actor=\(actor.replacingOccurrences(of: " ", with: "%20"))&limit=2&before=\(next)", key: key)
            #expect((try second.json()["entries"].array ?? []).map { $0["action"].string } == ["pass.update", "pass.issue"])
            #expect(try second.json()["next"] == .null)

            for (query, names) in [("source=phone", "source"), ("before=evt_3", "before"), ("limit=0", "limit"), ("since=yesterday", "since")] {
                let refused = try await Self.send(server, "GET", "/api/v1/audit?\(query)", key: key)
                #expect(refused.status == 422 && refused.text.contains(names), "\(query): \(refused)")
            }
        }
    }
}
