import Foundation
import PasswrightTesting
import Testing

/// `passwright keys` against a served child: a key made with the CLI works for its scope through the
/// CLI's own admin commands (PASSWRIGHT_API_KEY), is listed, rotated and revoked.
@Suite("keys", .serialized)
struct KeysCommandTests {
    static let adminToken = "keys-admin-token-0123456789abcdef"

    @Test("create, list, rotate and revoke through the CLI; the key works for its scope only")
    func lifecycle() async throws {
        try await withLoyaltyServer(adminToken: Self.adminToken) { served, _ in
            let admin = ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken]
            let created = try await CLI.run(["keys", "create", "ci-deploys", "--scopes", "templates:read", "--server", served.baseURL], environment: admin)
            #expect(created.status == 0 && created.err.contains("not shown again"), "\(created)")
            let key = try #require(created.out.split(separator: "\n").first { $0.hasPrefix("key ") }?.split(separator: " ").last.map(String.init))
            let id = try #require(created.out.split(separator: "\n").first { $0.hasPrefix("id ") }?.split(separator: " ").last.map(String.init))
            #expect(key.hasPrefix("pw_\(id)_"))

            // The key drives the CLI's admin commands, for what its scope allows.
            let withKey = ["PASSWRIGHT_API_KEY": key]
            let listed = try await CLI.run(["templates", "list", "--server", served.baseURL], environment: withKey)
            #expect(listed.status == 0 && listed.out.contains("loyalty"), "\(listed)")
            let refused = try await CLI.run(["push", "stats", "--server", served.baseURL], environment: withKey)
            #expect(refused.status == 1 && refused.err.contains("403") && refused.err.contains("push:send"), "\(refused)")

            let keys = try await CLI.run(["keys", "list", "--server", served.baseURL], environment: admin)
            #expect(keys.status == 0 && keys.out.contains(id) && keys.out.contains("ci-deploys") && !keys.out.contains(key), "\(keys)")
            let rotated = try await CLI.run(["keys", "rotate", id, "--server", served.baseURL], environment: admin)
            let newKey = try #require(rotated.out.split(separator: "\n").first { $0.hasPrefix("key ") }?.split(separator: " ").last.map(String.init))
            #expect(try await CLI.run(["templates", "list", "--server", served.baseURL], environment: withKey).status == 1, "the old secret stopped")
            #expect(try await CLI.run(["templates", "list", "--server", served.baseURL], environment: ["PASSWRIGHT_API_KEY": newKey]).status == 0)
            let revoked = try await CLI.run(["keys", "revoke", id, "--server", served.baseURL], environment: admin)
            #expect(revoked.status == 0, "\(revoked)")
            try await Task.sleep(for: .seconds(2.2))
            #expect(try await CLI.run(["templates", "list", "--server", served.baseURL], environment: ["PASSWRIGHT_API_KEY": newKey]).status == 1)

            let bad = try await CLI.run(["keys", "create", "x", "--server", served.baseURL], environment: admin)
            #expect(bad.status == 64 && bad.err.contains("--scopes"), "\(bad)")
        }
    }
}
