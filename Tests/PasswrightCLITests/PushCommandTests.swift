import Foundation
import PasswrightTesting
import Testing

/// `passwright push` against a real `passwright serve` child (the templates tests' server).
@Suite("passwright push")
struct PushCommandTests {
    @Test("push stats prints the server's answer once it reads as the push statistics; another shape is refused")
    func stats() async throws {
        try await TemplatesTests().withTemplateServer { server in
            let token = ["PASSWRIGHT_ADMIN_TOKEN": TemplatesTests.adminToken]
            let stats = try await CLI.run(["push", "stats", "--server", server.served.baseURL], environment: token)
            #expect(stats.status == 0, "\(stats)")
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(stats.out.utf8)) as? [String: Any], "\(stats)")
            #expect(printed["queued"] as? Int == 0)
            #expect(printed["oldestPendingSeconds"] is NSNull, "an empty outbox: null, written out")

            // A base URL whose paths land on another JSON document (the OpenAPI description, open
            // to all): a 200 of another shape is an error, not printed as if it were the statistics.
            let elsewhere = try await CLI.run(["push", "stats", "--server", server.served.baseURL + "/openapi.json?ignored="], environment: token)
            #expect(elsewhere.status == 1, "\(elsewhere)")
            #expect(elsewhere.err.contains("not what the admin API sends"), "\(elsewhere)")
            #expect(elsewhere.out.isEmpty, "\(elsewhere)")
        }
    }
}
