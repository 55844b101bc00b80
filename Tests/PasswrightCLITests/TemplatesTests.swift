import Foundation
import PasswrightTesting
import Testing

/// `passwright templates` against a real `passwright serve` child: a temp data dir (SQLite), no
/// template folder, the shared dev identities and a known admin token.
@Suite("passwright templates")
struct TemplatesTests {
    static let adminToken = "templates-admin-\(UUID().uuidString)"

    /// A running server and the `templates` commands pointed at it.
    struct Server: Sendable {
        let served: ServeChild
        let scratch: URL

        /// `passwright templates arguments… --server <this server>` with `token` as PASSWRIGHT_ADMIN_TOKEN.
        func templates(_ arguments: [String], token: String? = TemplatesTests.adminToken) async throws -> ProcessResult {
            try await CLI.run(["templates"] + arguments + ["--server", served.baseURL], environment: token.map { ["PASSWRIGHT_ADMIN_TOKEN": $0] } ?? [:])
        }

        /// A copy of the sample template `name` in the scratch folder (under `folder`), edited by `edit`.
        func copy(_ name: String, as copyName: String, in folder: String = "work", editing edit: (inout [String: Any]) -> Void = { _ in }) throws -> URL {
            let parent = scratch.appendingPathComponent(folder, isDirectory: true)
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            return try Samples.copy(name, into: parent, as: copyName, editing: edit)
        }
    }

    /// Runs `body` with a fresh server; always stops it and removes its files.
    func withTemplateServer(_ body: (Server) async throws -> Void) async throws {
        let identities = try await DevIdentities.shared.folder()
        try await withScratch { scratch in
            try await withServeChild([
                "--data-dir", scratch.appendingPathComponent("data").path, "--templates", "none",
                "--identities", identities.root.path, "--public-url", "https://passes.example.test", "--push", "off",
                "--log-level", "warning",
            ], environment: ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken]) { served in
                try await body(Server(served: served, scratch: scratch))
            }
        }
    }

    /// Sets the label of the loyalty template's primary field (`points`).
    static func relabel(_ label: String) -> (inout [String: Any]) -> Void {
        { passJSON in
            guard var card = passJSON["storeCard"] as? [String: Any], var fields = card["primaryFields"] as? [[String: Any]] else { return }
            fields[0]["label"] = label
            card["primaryFields"] = fields
            passJSON["storeCard"] = card
        }
    }

    @Test("push: new template (version 1), unchanged, a changed label (version 2), a lint error refused; list and versions")
    func pushLifecycle() async throws {
        try await withTemplateServer { server in
            let folder = try server.copy("loyalty", as: "loyalty-copy")
            try Data("litter".utf8).write(to: folder.appendingPathComponent(".DS_Store"))
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("drafts"), withIntermediateDirectories: true)
            try Data("old".utf8).write(to: folder.appendingPathComponent("drafts/old.json"))

            let created = try await server.templates(["push", folder.path, "--name", "rewards"])
            #expect(created.status == 0, "\(created)")
            #expect(created.out.contains("rewards: version 1 (new template)"), "\(created)")
            #expect(created.err.contains("warning: rewards: left out drafts/"), "a stray folder is left out, and said so: \(created)")

            // Without the junk the files are the same: .DS_Store and drafts/ were never sent.
            try FileManager.default.removeItem(at: folder.appendingPathComponent(".DS_Store"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent("drafts"))
            let again = try await server.templates(["push", folder.path, "--name", "rewards"])
            #expect(again.status == 0, "\(again)")
            #expect(again.out.contains("rewards: version 1, unchanged"), "\(again)")

            let relabelled = try server.copy("loyalty", as: "rewards", in: "relabelled", editing: Self.relabel("Stars"))
            let changed = try await server.templates(["push", relabelled.path])
            #expect(changed.status == 0, "\(changed)")
            #expect(changed.out.contains("rewards: version 2, changed; 0 passes affected"), "\(changed)")

            let broken = try server.copy("loyalty", as: "rewards", in: "broken") { $0["foregroundColor"] = "banana" }
            let refused = try await server.templates(["push", broken.path])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.err.contains("Error: template 'rewards' refused (422)"), "\(refused)")
            #expect(refused.err.contains("  pass.json foregroundColor: "), "every error with its file and path: \(refused)")
            #expect(refused.out.isEmpty)

            let versions = try await server.templates(["versions", "rewards"])
            #expect(versions.status == 0, "\(versions)")
            #expect(versions.out.contains("rewards: version 2 current, ready; 0 passes, 0 behind"), "\(versions)")
            let rows = versions.out.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").map(String.init) }
            #expect(rows.map { $0.first == "*" ? $0[1] : $0[0] } == ["2", "1"], "newest first, no version 3: \(versions)")
            #expect(rows.first?.first == "*", "the current version is marked: \(versions)")

            let raw = try await server.templates(["versions", "rewards", "--json"])
            let details = try #require(try JSONSerialization.jsonObject(with: Data(raw.out.utf8)) as? [String: Any])
            #expect(details["currentVersion"] as? Int == 2)
            #expect((details["versions"] as? [Any])?.count == 2)

            let list = try await server.templates(["list"])
            #expect(list.status == 0, "\(list)")
            #expect(list.out.hasPrefix("NAME"), "\(list)")
            let row = try #require(list.out.split(separator: "\n").first { $0.hasPrefix("rewards ") })
            #expect(row.split(separator: " ").map(String.init) == ["rewards", "2", "ready", DevIdentities.passTypeIdentifier], "\(list)")
            let listJSON = try await server.templates(["list", "--json"])
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(listJSON.out.utf8)) as? [String: Any])
            #expect((listed["templates"] as? [[String: Any]])?.map { $0["name"] as? String } == ["rewards"])

            let missing = try await server.templates(["versions", "nonesuch"])
            #expect(missing.status == 1)
            #expect(missing.err.contains("answered 404"), "\(missing)")
        }
    }

    @Test("sync: every subfolder with a pass.json, a line each; exit 1 when one is refused, the others still stored")
    func sync() async throws {
        try await withTemplateServer { server in
            _ = try server.copy("loyalty", as: "cafe", in: "deploy")
            _ = try server.copy("coupon", as: "sale", in: "deploy")
            try FileManager.default.createDirectory(at: server.scratch.appendingPathComponent("deploy/notes"), withIntermediateDirectories: true)
            let deploy = server.scratch.appendingPathComponent("deploy")

            let first = try await server.templates(["sync", deploy.path])
            #expect(first.status == 0, "\(first)")
            #expect(first.out.contains("[1/2] cafe: version 1 (new template)"), "\(first)")
            #expect(first.out.contains("[2/2] sale: version 1 (new template)"), "\(first)")
            #expect(first.out.contains("2 templates: 2 stored, 0 refused"), "\(first)")

            try FileManager.default.removeItem(at: deploy.appendingPathComponent("sale"))
            _ = try server.copy("coupon", as: "sale", in: "deploy") { $0["foregroundColor"] = "banana" }
            _ = try server.copy("loyalty", as: "cafe", in: "deploy-2", editing: Self.relabel("Beans"))
            try FileManager.default.removeItem(at: deploy.appendingPathComponent("cafe"))
            try FileManager.default.moveItem(at: server.scratch.appendingPathComponent("deploy-2/cafe"), to: deploy.appendingPathComponent("cafe"))

            let second = try await server.templates(["sync", deploy.path])
            #expect(second.status == 1, "\(second)")
            #expect(second.out.contains("[1/2] cafe: version 2, changed"), "\(second)")
            #expect(second.out.contains("[2/2] sale: refused (422, 1 error)"), "\(second)")
            #expect(second.out.contains("2 templates: 1 stored, 1 refused (sale)"), "\(second)")
            #expect(second.err.contains("pass.json foregroundColor: "), "\(second)")

            let list = try await server.templates(["list"])
            let versions = list.out.split(separator: "\n").dropFirst().map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
            #expect(versions == ["cafe 2", "sale 1"], "the refused folder left version 1 current: \(list)")

            let wrongToken = try await server.templates(["sync", deploy.path], token: "not-the-token")
            #expect(wrongToken.status == 1, "\(wrongToken)")
            #expect(wrongToken.err.contains("answered 401"), "\(wrongToken)")
        }
    }

    @Test("an order template folder: push stores it as an order template, sync uploads orders/<name> after the pass templates; list and versions --order show it")
    func orderTemplates() async throws {
        try await withTemplateServer { server in
            let deploy = server.scratch.appendingPathComponent("deploy")
            let shop = deploy.appendingPathComponent("orders/shop")
            try FileManager.default.createDirectory(at: deploy.appendingPathComponent("orders"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Samples.templatesFolder.appendingPathComponent("orders/shop"), to: shop)

            let created = try await server.templates(["push", shop.path])
            #expect(created.status == 0 && created.out.contains("shop: order template version 1 (new order template)"), "\(created)")
            let again = try await server.templates(["push", shop.path])
            #expect(again.status == 0 && again.out.contains("shop: order template version 1, unchanged"), "\(again)")

            _ = try server.copy("loyalty", as: "cafe", in: "deploy")
            try Data(contentsOf: shop.appendingPathComponent("socks.png")).write(to: shop.appendingPathComponent("logo.png"))
            let synced = try await server.templates(["sync", deploy.path])
            #expect(synced.status == 0, "\(synced)")
            #expect(synced.out.contains("[1/2] cafe: version 1 (new template)"), "\(synced)")
            #expect(synced.out.contains("[2/2] orders/shop: order template version 2, changed"), "\(synced)")
            #expect(synced.out.contains("2 templates: 2 stored, 0 refused"), "\(synced)")

            // Listed with the pass templates, and on their own; their history by name.
            let listed = try await server.templates(["list"])
            #expect(listed.status == 0, "\(listed)")
            let lines = listed.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            #expect(lines.contains(["cafe", "1", "ready", "pass.dev.passwright.loyalty"]), "\(listed)")
            #expect(lines.contains(["ORDER", "TEMPLATE", "VERSION", "STATUS", "ORDER", "TYPE"]), "\(listed)")
            // This server has no Order Type ID identity: the order template is listed as unavailable, with why.
            #expect(lines.contains { $0.starts(with: ["shop", "2", "unavailable", "order.dev.passwright.shop", "(orders"]) && $0.contains("identity") }, "\(listed)")
            let ordersOnly = try await server.templates(["list", "--orders"])
            #expect(ordersOnly.status == 0 && ordersOnly.out.contains("shop") && !ordersOnly.out.contains("cafe"), "\(ordersOnly)")
            let json = try await server.templates(["list", "--orders", "--json"])
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json)")
            let entries = try #require(answer["templates"] as? [[String: Any]], "\(json)")
            #expect(entries.map { $0["name"] as? String } == ["shop"] && entries.first?["version"] as? Int == 2, "\(json)")

            let versions = try await server.templates(["versions", "shop", "--order"])
            #expect(versions.status == 0, "\(versions)")
            #expect(versions.out.hasPrefix("shop: order template version 2 current, unavailable (orders of type order.dev.passwright.shop cannot be signed here"), "\(versions)")
            #expect(versions.out.contains("; order type order.dev.passwright.shop\n"), "\(versions)")
            let rows = versions.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(rows.contains { $0.starts(with: ["*", "2", "0"]) }, "version 2, current, no orders yet: \(versions)")
            #expect(rows.contains { $0.starts(with: ["1", "0"]) }, "\(versions)")
            let unknown = try await server.templates(["versions", "cafe", "--order"])
            #expect(unknown.status == 1 && unknown.err.contains("404"), "\(unknown)")
        }
    }

    @Test("no PASSWRIGHT_ADMIN_TOKEN: exit 1 with a message naming it, for every admin command", arguments: [
        ["templates", "push", "Templates/loyalty"], ["templates", "sync", "Templates"], ["templates", "list"],
        ["templates", "versions", "loyalty"], ["push", "stats"],
    ])
    func missingToken(arguments: [String]) async throws {
        let result = try await CLI.run(arguments + ["--server", "http://127.0.0.1:9"], in: CLI.packageRoot)
        #expect(result.status == 1, "\(result)")
        #expect(result.err.hasPrefix("Error: "), "\(result)")
        #expect(result.err.contains("PASSWRIGHT_ADMIN_TOKEN"), "\(result)")
    }
}
