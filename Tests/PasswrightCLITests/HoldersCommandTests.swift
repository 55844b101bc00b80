import Foundation
import PasswrightTesting
import Testing

/// `passwright holders` against a served child: export finds exactly the holder's passes (the value
/// read from standard input), erase wants `--yes` and the erase scope, then erases them (again, the
/// value is found nowhere), and the order forms reach the orders' lookups.
@Suite("holders", .serialized)
struct HoldersCommandTests {
    static let adminToken = "holders-admin-token-0123456789abcdef"

    @Test("export, then erase with --yes; a key without passes:erase is refused; orders through --orders")
    func exportAndErase() async throws {
        try await withLoyaltyServer(adminToken: Self.adminToken) { served, _ in
            let client = RawHTTPClient(port: served.port)
            let bearer = [("Authorization", "Bearer \(Self.adminToken)"), ("Content-Type", "application/json")]
            for (serial, member, name) in [("H-1", "M-77", "Zelda Quux"), ("H-2", "M-77", "Zelda Quux"), ("H-3", "M-78", "Other Person")] {
                let body = #"{"template":"loyalty","serialNumber":"\#(serial)","data":{"member":{"id":"\#(member)","name":"\#(name)"},"points":1,"tier":"Gold"}}"#
                #expect(try await client.send("POST", "/api/v1/passes", headers: bearer, body: Data(body.utf8)).status == 201)
            }
            let admin = ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken]
            let lookup = ["--field", "member.id", "--server", served.baseURL]

            let exported = try await CLI.run(["holders", "export", "--value", "-"] + lookup, stdin: Data("M-77\n".utf8), environment: admin)
            #expect(exported.status == 0 && exported.out.contains("H-1") && exported.out.contains("H-2") && exported.out.contains("Zelda Quux"), "\(exported)")
            #expect(!exported.out.contains("H-3") && !exported.out.contains("Other Person"), "only the holder's passes")

            let unconfirmed = try await CLI.run(["holders", "erase", "--value", "M-77"] + lookup, environment: admin)
            #expect(unconfirmed.status == 64 && unconfirmed.err.contains("--yes"), "\(unconfirmed)")
            let created = try await CLI.run(["keys", "create", "support-desk", "--scopes", "passes:read", "--server", served.baseURL], environment: admin)
            let key = try #require(created.out.split(separator: "\n").first { $0.hasPrefix("key ") }?.split(separator: " ").last.map(String.init))
            let refused = try await CLI.run(["holders", "erase", "--value", "M-77", "--yes"] + lookup, environment: ["PASSWRIGHT_API_KEY": key])
            #expect(refused.status == 1 && refused.err.contains("403") && refused.err.contains("passes:erase"), "\(refused)")

            let erased = try await CLI.run(["holders", "erase", "--value", "-", "--yes"] + lookup, stdin: Data("M-77\n".utf8), environment: admin)
            #expect(erased.status == 0, "\(erased)")
            let lines = erased.out.split(separator: "\n").filter { $0.contains("H-") }
            #expect(lines.count == 2 && lines.allSatisfy { $0.contains(" erased ") }, "\(erased)")
            let pass = try await client.send("GET", "/api/v1/passes/pass.dev.passwright.loyalty/H-1", headers: bearer)
            #expect(!pass.text.contains("Zelda"), "\(pass.text)")
            let again = try await CLI.run(["holders", "erase", "--value", "M-77", "--yes"] + lookup, environment: admin)
            #expect(again.status == 0 && again.err.contains("nothing was erased"), "the value is held nowhere any more: \(again)")
            #expect(try await client.send("GET", "/api/v1/passes/pass.dev.passwright.loyalty/H-3", headers: bearer).text.contains("Other Person"))

            let orders = try await CLI.run(["holders", "export", "--orders", "--value", "nobody@example.test", "--field", "customer.emailAddress", "--server", served.baseURL], environment: admin)
            #expect(orders.status == 0 && orders.out.contains("\"orders\""), "\(orders)")
            let noOrder = try await CLI.run(["holders", "erase", "--orders", "--yes", "--value", "nobody@example.test", "--field", "customer.emailAddress", "--server", served.baseURL], environment: admin)
            #expect(noOrder.status == 0 && noOrder.err.contains("nothing was erased"), "\(noOrder)")
            let noField = try await CLI.run(["holders", "export", "--value", "M-77", "--server", served.baseURL], environment: admin)
            #expect(noField.status == 64 && noField.err.contains("--field"), "\(noField)")
        }
    }
}
