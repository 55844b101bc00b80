import Foundation
import PasswrightTesting
import Testing

/// `serve --templates DIR` keeps folder deployments working: a folder edited while the server runs
/// becomes a new version on `SIGHUP`, without a restart.
@Suite("Template folders")
struct TemplateFolderReloadTests {
    @Test("SIGHUP imports an edited folder as a new version; an unchanged one stays as it is")
    func sighupImports() async throws {
        let identities = try ServiceIdentities.shared()
        try await withScratch { scratch in
            let folder = scratch.appendingPathComponent("Templates")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["loyalty", "coupon"] {
                try FileManager.default.copyItem(at: Samples.templatesFolder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
            let token = "reload-admin-\(UUID().uuidString)"
            try await withServeChild(
                ["--data-dir", scratch.appendingPathComponent("data").path, "--templates", folder.path, "--identities", identities.folder.path],
                environment: ["PASSWRIGHT_ADMIN_TOKEN": token]
            ) { server in
                let client = RawHTTPClient(port: server.port)
                let admin = [("Authorization", "Bearer \(token)")]
                func version(_ name: String) async throws -> Double? {
                    try await client.send("GET", "/api/v1/templates/\(name)", headers: admin).json()["currentVersion"].number
                }
                #expect(try await version("loyalty") == 1)
                #expect(try await version("coupon") == 1)

                let passJSON = folder.appendingPathComponent("loyalty/pass.json")
                let text = try String(contentsOf: passJSON, encoding: .utf8)
                try text.replacingOccurrences(of: #""label": "Points""#, with: #""label": "Beans""#).write(to: passJSON, atomically: true, encoding: .utf8)
                server.process.signal(SIGHUP)
                try await eventually("the edited folder is imported") { try await version("loyalty") == 2 ? true : nil }
                #expect(try await version("coupon") == 1, "an unchanged folder is not a new version")
                #expect(try await client.send("GET", "/healthz").status == 200, "SIGHUP does not stop the server")
            }
        }
    }
}
