import Foundation
import PasswrightTesting
import Testing
import ZipArchive

/// Templates as versions in the store, through the admin API, on both engines: upload, unchanged
/// re-upload, lint refusal, hostile archives, history, download and rollback.
@Suite("Template versions")
struct TemplateVersionTests {
    static let loyalty = PushTypes.loyalty

    /// `pass.json` of the loyalty sample with the points label changed.
    static func relabelled(_ label: String) -> (String) -> String {
        { $0.replacingOccurrences(of: #""label": "Points""#, with: #""label": "\#(label)""#) }
    }

    @Test("a new template is 201 v1, the same files again 200 unchanged (no tag moves, nothing queued), changed files 200 v2", arguments: Engine.selected)
    func uploadAndReupload(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let first = try await server.upload("club", TemplateZip.sample())
            #expect(first.status == 201, "\(first)")
            let created = try first.json()
            #expect(created["version"].number == 1)
            #expect(created["changed"] == true)
            #expect(created["digest"].string?.count == 64)

            let token = "club-token-\(UUID().uuidString)"
            let issued = try await server.issue(template: "club", serial: "CLUB-1", data: try Samples.record("loyalty", authenticationToken: token))
            let tag = try #require(issued["updateTag"].string)
            #expect(try await SimulatedDevice().register(server.client, passType: Self.loyalty, serial: "CLUB-1", authenticationToken: token) == 201)

            let again = try await server.upload("club", TemplateZip.sample())
            #expect(again.status == 200)
            #expect(try again.json()["changed"] == false)
            #expect(try again.json()["version"].number == 1)
            #expect(try again.json()["passesAffected"].number == 0)
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/CLUB-1").json()["updateTag"].string == tag)
            #expect(try await server.adminClient.pushStats()["queued"].number == 0, "an unchanged upload pushes nothing")

            let changed = try await server.upload("club", TemplateZip.sample(editingPassJSON: Self.relabelled("Beans")))
            #expect(changed.status == 200)
            #expect(try changed.json()["version"].number == 2)
            #expect(try changed.json()["changed"] == true)
            #expect(try changed.json()["passesAffected"].number == 1)
            try await eventually("the roll-out reaches the pass") {
                try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/CLUB-1").json()["updateTag"].string != tag ? true : nil
            }
            let details = try await server.api("GET", "/api/v1/templates/club").json()
            #expect(details["currentVersion"].number == 2)
            #expect(details["passesBehind"].number == 0)
            #expect(details["versions"].array?.compactMap { $0["version"].number } == [2, 1])
            let served = try await server.servedPass(Self.loyalty, "CLUB-1")
            #expect(served.passJSON["storeCard"]["primaryFields"][0]["label"].string == "Beans")
        }
    }

    @Test("a template with a lint error is 422 with each error by file and path; nothing is stored, the current version stays", arguments: Engine.selected)
    func lintErrorRefused(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            #expect(try await server.upload("club", TemplateZip.sample()).status == 201)
            // Two things Wallet refuses a pass for: a format version it does not know, a negative distance.
            let broken = try TemplateZip.sample {
                $0.replacingOccurrences(of: #""formatVersion": 1"#, with: #""formatVersion": 2, "maxDistance": -5"#)
            }
            let refused = try await server.upload("club", broken)
            #expect(refused.status == 422, "\(refused)")
            let problem = try refused.json()
            let errors = try problem["errors"].array.orThrow("no errors in \(problem)")
            #expect(errors.count >= 2, "every error at once: \(errors)")
            #expect(errors.allSatisfy { $0["file"].string == "pass.json" && !($0["path"].string ?? "").isEmpty })
            #expect(errors.contains { $0["path"].string == "formatVersion" }, "\(errors)")
            #expect(errors.contains { $0["path"].string == "maxDistance" }, "\(errors)")
            let details = try await server.api("GET", "/api/v1/templates/club").json()
            #expect(details["currentVersion"].number == 1)
            #expect(details["versions"].array?.count == 1)
            let missing = try await server.upload("never-stored", broken)
            #expect(missing.status == 422)
            #expect(try await server.api("GET", "/api/v1/templates/never-stored").status == 404)
        }
    }

    @Test("hostile archives are refused with a clear 4xx and the server keeps serving", arguments: [
        ("traversal", 422, "../../etc/evil.png"), ("symlink", 422, "symbolic link"), ("bomb", 413, "strip.png"), ("entries", 413, "entries"),
    ])
    func hostileArchives(kind: String, status: Int, named: String) async throws {
        try await withService { server in
            let response = try await server.upload("club", try await TemplateZip.hostile(kind))
            #expect(response.status == status, "\(kind): \(response)")
            #expect(response.header("content-type") == "application/problem+json")
            let detail = try response.json()["detail"].string ?? ""
            #expect(detail.contains(named), "the problem says what is wrong: \(detail)")
            #expect(try await server.api("GET", "/api/v1/templates/club").status == 404, "nothing stored")
            try await server.expectHealthy()
        }
    }

    @Test("not a zip is 400, another content type 415, a body over the limit 413, a bad name 400")
    func malformedUploads() async throws {
        try await withService { server in
            #expect(try await server.upload("club", Data("not a zip at all".utf8)).status == 400)
            #expect(try await server.upload("club", TemplateZip.sample(), contentType: "application/json").status == 415)
            #expect(try await server.upload("club", Data(count: 21 << 20)).status == 413)
            #expect(try await server.upload("..hidden", TemplateZip.sample()).status == 400)
            let anonymous = try await server.client.send("PUT", "/api/v1/templates/club", headers: [("Content-Type", "application/zip")], body: TemplateZip.sample())
            #expect(anonymous.status == 401)
            try await server.expectHealthy()
        }
    }

    @Test("a version downloads as the zip it was uploaded as, and a rollback makes it current again as a new version", arguments: Engine.selected)
    func downloadAndRollback(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let original = try TemplateZip.sample()
            let v1 = try await server.upload("club", original).json()
            _ = try await server.upload("club", TemplateZip.sample(editingPassJSON: Self.relabelled("Beans")))

            let download = try await server.client.send("GET", "/api/v1/templates/club/versions/1", headers: server.admin)
            #expect(download.status == 200)
            #expect(download.header("content-type") == "application/zip")
            let downloaded = try ZipReader(data: download.body), uploaded = try ZipReader(data: original)
            #expect(downloaded.entries.map(\.name).sorted() == uploaded.entries.map(\.name).sorted())
            for entry in uploaded.entries { #expect(try downloaded.data(for: entry.name) == uploaded.data(for: entry.name), "\(entry.name)") }
            #expect(try await server.client.send("GET", "/api/v1/templates/club/versions/9", headers: server.admin).status == 404)
            #expect(try await server.client.send("GET", "/api/v1/templates/club/versions/latest", headers: server.admin).status == 400)

            let rolledBack = try await server.api("POST", "/api/v1/templates/club/rollback", json: ["version": 1])
            #expect(rolledBack.status == 200, "\(rolledBack)")
            #expect(try rolledBack.json()["version"].number == 3, "the history only grows")
            #expect(try rolledBack.json()["digest"] == v1["digest"])
            let history = try await server.api("GET", "/api/v1/templates/club").json()["versions"].array ?? []
            #expect(history.first?["restores"].number == 1)
            #expect(try await server.api("POST", "/api/v1/templates/club/rollback", json: ["version": 7]).status == 404)
            #expect(try await server.api("POST", "/api/v1/templates/club/rollback", json: ["version": "one"]).status == 422)
        }
    }

    @Test("a master image in the upload becomes the slot's @1x, @2x and @3x at Wallet's sizes; a bad one is refused by name")
    func masterImage() async throws {
        try await withService { server in
            let svg = Data(##"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="150"><rect width="480" height="150" fill="#c8a060"/></svg>"##.utf8)
            let upload = try await server.upload("club", TemplateZip.sample(replacing: "logo", with: "logo.master.svg", master: svg))
            #expect(upload.status == 201, "\(upload)")
            let warnings = try upload.json()["warnings"].array ?? []
            #expect(warnings.contains { ($0["message"].string ?? "").contains("logo.master.svg made logo.png, logo@2x.png, logo@3x.png") }, "\(warnings)")
            let download = try await server.client.send("GET", "/api/v1/templates/club/versions/1", headers: server.admin)
            let stored = try ZipReader(data: download.body)
            #expect(Set(stored.entries.map(\.name)).isSuperset(of: ["logo.png", "logo@2x.png", "logo@3x.png"]))
            #expect(!stored.contains("logo.master.svg"), "the master is not stored, the images made from it are")
            let lint = try await server.api("POST", "/api/v1/templates/club/lint")
            #expect(lint.header("x-passwright-lint-errors") == "0", "the made sizes are the ones lint expects")
            #expect(!(try lint.json().array ?? []).contains { ($0["rule"].string ?? "").hasPrefix("image.size") }, "\(lint)")

            let bad = try await server.upload("club2", TemplateZip.sample(replacing: "logo", with: "logo.master.png", master: Data("not a picture".utf8)))
            #expect(bad.status == 422, "\(bad)")
            #expect(try bad.json()["errors"].array?.first?["file"].string == "logo.master.png")
        }
    }
}
