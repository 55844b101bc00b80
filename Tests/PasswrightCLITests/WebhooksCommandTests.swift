import Foundation
import PasswrightTesting
import Testing

/// `passwright webhooks` against a served child, and a served child killed while a delivery is in
/// flight: the restarted server sends it again once the lease lapses, so nothing is lost.
@Suite("webhooks", .serialized)
struct WebhooksCommandTests {
    static let adminToken = "webhooks-admin-token-0123456789abcdef"

    func serve(data: URL, templates: URL, _ body: (ServeChild) async throws -> Void) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withServeChild([
            "--data-dir", data.path, "--templates", templates.path, "--identities", identities.root.path,
            "--public-url", "https://passes.example.test", "--push", "off", "--log-level", "warning", "--webhook-lease", "5",
        ], environment: ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken, "PASSWRIGHT_LINK_KEY": "00112233445566778899aabbccddeeff"]) { served in
            try await body(served)
        }
    }

    func cli(_ arguments: [String], _ served: ServeChild) async throws -> ProcessResult {
        try await CLI.run(arguments + ["--server", served.baseURL], environment: ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken])
    }

    static func issue(_ served: ServeChild, serial: String) async throws -> Int {
        var record = try JSONSerialization.jsonObject(with: Data(contentsOf: Samples.sample("loyalty.json"))) as? [String: Any] ?? [:]
        record["serialNumber"] = nil
        let body = try JSONSerialization.data(withJSONObject: ["template": "loyalty", "serialNumber": serial, "data": record])
        return try await RawHTTPClient(port: served.port).send("POST", "/api/v1/passes", headers: [
            ("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json"),
        ], body: body).status
    }

    @Test("add, list, deliveries, rotate, replay and remove through the CLI; a SIGKILL mid-delivery loses nothing")
    func commandsAndACrashMidDelivery() async throws {
        try await withScratch { scratch in
            let templates = try Samples.loyaltyTemplates(in: scratch)
            let data = scratch.appendingPathComponent("data")
            let receiver = try WebhookReceiverProcess(folder: scratch.appendingPathComponent("receiver"))
            defer { receiver.stop() }
            var id = ""
            try await serve(data: data, templates: templates) { served in
                let added = try await cli(["webhooks", "add", receiver.url.absoluteString, "--types", "pass.issued", "--description", "crm"], served)
                #expect(added.status == 0, "\(added)")
                id = try #require(added.out.split(separator: "\n").first { $0.hasPrefix("id ") }?.split(separator: " ").last.map(String.init))
                let secret = try #require(added.out.split(separator: "\n").first { $0.hasPrefix("secret ") }?.split(separator: " ").last.map(String.init))
                try receiver.setSecrets([secret])
                let listed = try await cli(["webhooks", "list"], served)
                #expect(listed.status == 0 && listed.out.contains(id) && listed.out.contains("enabled") && !listed.out.contains(secret), "\(listed)")

                // The receiver holds its answer; the server dies while the delivery is in flight.
                try receiver.setRules(["delay_ms": 3000])
                #expect(try await Self.issue(served, serial: "CRASH-1") == 201)
                _ = try await receiver.waitForDeliveries { !$0.isEmpty }
                _ = try await served.kill()
            }
            try receiver.setRules([:])
            try await serve(data: data, templates: templates) { served in
                // After the 5 s lease the restarted server sends it again: the receiver sees the id twice.
                let deliveries = try await receiver.waitForDeliveries(timeout: .seconds(60)) { $0.count >= 2 }
                #expect(Set(deliveries.compactMap(\.id)).count == 1, "the same event, re-sent")
                let allVerified = deliveries.allSatisfy { $0.verified }
                #expect(allVerified)
                var shown = try await cli(["webhooks", "deliveries", id], served)
                for _ in 0..<200 where !shown.out.contains("delivered") {
                    try await Task.sleep(for: .milliseconds(25))
                    shown = try await cli(["webhooks", "deliveries", id], served)
                }
                #expect(shown.status == 0 && shown.out.contains("pass.issued") && shown.out.contains("delivered"), "\(shown)")

                let rotated = try await cli(["webhooks", "rotate", id, "--overlap", "60"], served)
                #expect(rotated.status == 0 && rotated.out.contains("secret  whsec_"), "\(rotated)")
                let replayed = try await cli(["webhooks", "replay", id, "--since", "2000-01-01T00:00:00Z"], served)
                #expect(replayed.status == 0 && replayed.out.contains("queued 1 deliveries"), "\(replayed)")
                let bad = try await cli(["webhooks", "replay", id], served)
                #expect(bad.status == 64 && bad.err.contains("--since TIME or --event"), "\(bad)")
                let removed = try await cli(["webhooks", "remove", id], served)
                #expect(removed.status == 0, "\(removed)")
                let gone = try await cli(["webhooks", "remove", id], served)
                #expect(gone.status == 1 && gone.err.contains("404"), "\(gone)")
            }
        }
    }
}
