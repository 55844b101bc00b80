import Foundation
import PasswrightTesting

/// A `passwright serve` child on a scratch folder with the loyalty sample template, push off and
/// `adminToken` as its admin token: the server the admin commands' tests (`keys`, `holders`, `issue`)
/// drive. `body` gets the child and the scratch folder, for its own files.
func withLoyaltyServer<T>(adminToken: String, _ body: (ServeChild, URL) async throws -> T) async throws -> T {
    try await withScratch { scratch in
        let templates = try Samples.loyaltyTemplates(in: scratch)
        let identities = try await DevIdentities.shared.folder()
        return try await withServeChild([
            "--data-dir", scratch.appendingPathComponent("data").path, "--templates", templates.path, "--identities", identities.root.path,
            "--public-url", "https://passes.example.test", "--push", "off", "--log-level", "warning",
        ], environment: ["PASSWRIGHT_ADMIN_TOKEN": adminToken, "PASSWRIGHT_LINK_KEY": "00112233445566778899aabbccddeeff"]) { served in
            try await body(served, scratch)
        }
    }
}
