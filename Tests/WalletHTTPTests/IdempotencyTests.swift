import Foundation
import PasswrightTesting
import Testing
@testable import WalletCore
import WalletHTTP

/// `Idempotency-Key` on the admin API's writes: a retried issue is one pass with the same answer,
/// whichever instance gets the retry; another request under the key is 422; a request still running
/// under it is 409. On both engines.
@Suite(.timeLimit(.minutes(2))) struct IdempotencyTests {
    static let loyalty = "pass.dev.passwright.loyalty"

    /// Issues a loyalty pass without a serial (the server picks one), under `key`.
    static func issue(_ server: TestService, key: String, points: Int = 1) async throws -> RawResponse {
        var record = try Self.recordWithoutSerial()
        record["points"] = .number(Double(points))
        let body: JSON = ["template": "loyalty", "data": record]
        return try await server.client.send("POST", "/api/v1/passes", headers: server.admin + [("Idempotency-Key", key)], body: body.data)
    }

    /// The sample record without its serial number, so the server picks one for each pass.
    static func recordWithoutSerial() throws -> JSON {
        guard case .object(var members) = try Samples.record("loyalty") else { return [:] }
        members.removeValue(forKey: "serialNumber")
        return .object(members)
    }

    @Test(arguments: Engine.selected)
    func theSameKeyTwiceIsOnePassAndTheSameAnswer(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let first = try await Self.issue(server, key: "order-4711")
            let second = try await Self.issue(server, key: "order-4711")
            #expect(first.status == 201, "\(first)")
            #expect(second.status == 201 && second.body == first.body, "the first answer again: \(second)")
            #expect(second.header("Location") == first.header("Location") && second.header("Location") != nil)
            #expect(second.header("Idempotent-Replayed") == "true" && first.header("Idempotent-Replayed") == nil)
            // The structured-field form of the same key is the same key.
            let quoted = try await Self.issue(server, key: "\"order-4711\"")
            #expect(quoted.body == first.body)
            let other = try await Self.issue(server, key: "order-4712")
            #expect(other.status == 201 && other.body != first.body)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await EventAPITests.events(server, query: "&type=pass.issued", count: 2).events.count == 2, "two keys, two passes")
        }
    }

    @Test func anotherRequestUnderAKeyIs422AndARefusalIsReplayedToo() async throws {
        try await withService { server in
            #expect(try await Self.issue(server, key: "k-1", points: 1).status == 201)
            let other = try await Self.issue(server, key: "k-1", points: 2)
            #expect(other.status == 422 && other.text.contains("used with another request"), "\(other)")
            // A refusal is an answer like any other: sent again, not run again.
            let bad = try await server.client.send("POST", "/api/v1/passes", headers: server.admin + [("Idempotency-Key", "k-2")],
                                                   body: Data(#"{"template":"nope","data":{}}"#.utf8))
            let again = try await server.client.send("POST", "/api/v1/passes", headers: server.admin + [("Idempotency-Key", "k-2")],
                                                     body: Data(#"{"template":"nope","data":{}}"#.utf8))
            #expect(bad.status == 422 && again.status == 422 && again.body == bad.body && again.header("Idempotent-Replayed") == "true")
            for key in [String(repeating: "x", count: 256), "two words", ""] {
                let refused = try await server.client.send("POST", "/api/v1/passes", headers: server.admin + [("Idempotency-Key", key)], body: Data("{}".utf8))
                #expect(refused.status == 400 && refused.text.contains("Idempotency-Key must be"), "\(key.prefix(20)): \(refused)")
            }
        }
    }

    @Test(arguments: Engine.selected)
    func aKeyStillBeingAnsweredIs409AndConcurrentRetriesMakeOnePass(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            // A first request still running under the key (claimed, not finished): the retry waits its turn.
            let path = "/api/v1/passes"
            let record = try Self.recordWithoutSerial()
            let body: JSON = ["template": "loyalty", "data": record]
            let fingerprint = IdempotencyService.fingerprint(method: "POST", path: path, body: body.data)
            #expect(try await server.service.services.idempotency.claim(scope: "admin", key: "held", fingerprint: fingerprint) == .proceed)
            let busy = try await server.client.send("POST", path, headers: server.admin + [("Idempotency-Key", "held")], body: body.data)
            #expect(busy.status == 409 && busy.header("Retry-After") == "1" && busy.text.contains("still being answered"), "\(busy)")

            // Eight clients retrying at once: one pass; every 201 carries the same answer, the rest are 409.
            let answers = try await withThrowingTaskGroup(of: RawResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.issue(server, key: "burst") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { [201, 409].contains($0.status) }, "\(answers.map(\.status))")
            let created = answers.filter { $0.status == 201 }
            #expect(!created.isEmpty && Set(created.map(\.body)).count == 1, "\(answers.map(\.status))")
            let final = try await Self.issue(server, key: "burst")
            #expect(final.status == 201 && final.body == created[0].body)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await EventAPITests.events(server, query: "&type=pass.issued", count: 1).events.count == 1, "one pass for the burst")
        }
    }

    /// The key lives in the database: a retry that reaches another instance gets the same answer.
    @Test func aRetryOnAnotherInstanceGetsTheSameAnswer() async throws {
        guard Engine.selected.contains(.postgres) else { return }
        try await Engine.postgres.withLocation { database in
            let linkKey = Data(UUID().uuidString.utf8)
            let token = "admin-" + UUID().uuidString
            try await withService(on: database, linkKey: linkKey, adminToken: token) { first in
                try await withService(on: database, linkKey: linkKey, adminToken: token) { second in
                    let one = try await Self.issue(first, key: "cross")
                    let two = try await Self.issue(second, key: "cross")
                    #expect(one.status == 201 && two.status == 201 && two.body == one.body && two.header("Idempotent-Replayed") == "true")
                }
            }
        }
    }
}
