import Foundation
import PassModel
import Signing
import PasswrightTesting
import Testing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// The service reviews templates with the linter: on request (`POST /api/v1/templates/{t}/lint`) and
/// at start-up, when a template with errors is kept from issuing passes.
@Suite("Template lint") struct LintEndpointTests {
    @Test("POST /api/v1/templates/{template}/lint answers the findings as JSON") func lintEndpoint() async throws {
        try await withService { server in
            let clean = try await server.api("POST", "/api/v1/templates/loyalty/lint")
            #expect(clean.status == 200, "\(clean)")
            #expect(clean.header("content-type")?.hasPrefix("application/json") == true)
            #expect(clean.header("x-passwright-lint-errors") == "0")
            guard case .array(let findings) = try clean.json() else {
                Issue.record("findings must be a JSON array: \(clean)")
                return
            }
            #expect(!findings.contains { $0["severity"] == "error" })

            let unknown = try await server.api("POST", "/api/v1/templates/no-such-template/lint")
            #expect(unknown.status == 404)
            let anonymous = try await server.client.send("POST", "/api/v1/templates/loyalty/lint")
            #expect(anonymous.status == 401)
            try await server.expectHealthy()
        }
    }

    @Test("a template the linter finds errors in is not used to issue passes") func templateWithErrorsIsUnavailable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Samples.templatesFolder.appendingPathComponent("loyalty")
        for name in ["loyalty", "broken"] {
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(name))
        }
        // formatVersion 2: Wallet refuses the pass. (A changeMessage without %@ is a lint error too,
        // but Wallet shows such a pass, so it does not keep a template from issuing.)
        let passJSON = folder.appendingPathComponent("broken/pass.json")
        var text = try String(contentsOf: passJSON, encoding: .utf8)
        let marker = try #require(text.range(of: "\"formatVersion\": 1"))
        text.replaceSubrange(marker, with: "\"formatVersion\": 2")
        try text.write(to: passJSON, atomically: true, encoding: .utf8)

        try await TestEngine.sqlite.withDatabase { database in
            let store = WalletStore(database: database)
            try await store.migrate()
            let catalog = try await importedTemplates(into: store, folder: folder).statuses().mapValues(\.entry)
        #expect(catalog["loyalty"]?.compiler != nil)
        #expect(catalog["broken"]?.compiler == nil)
        guard case .unavailable(let reason)? = catalog["broken"] else {
            Issue.record("the broken template should be unavailable")
            return
        }
        #expect(reason.contains("formatVersion"), "\(reason)")
        }
    }
}
