import Foundation
import PasswrightTesting
@testable import Storage
import Testing
@testable import WalletHTTP

/// Holders' data rights on a running service, on both engines: an export holds everything stored
/// about the holder; an erasure by a value in the records voids and pushes the passes, leaves
/// Wallet a voided tombstone to fetch, is audited, is idempotent, refuses later changes, and leaves
/// the holder's values nowhere in the database (the SQLite file and its log, or a `pg_dump`).
@Suite(.timeLimit(.minutes(6))) struct ErasureTests {
    static let loyalty = "pass.dev.passwright.loyalty"
    /// Values that appear nowhere else, so finding one anywhere is finding the holder's data.
    static let name = "Zelda Quux-Holderova"
    static let memberID = "MEM-ERASE-77310"

    static func record(_ serial: String) -> JSON {
        ["member": ["id": .string(memberID), "name": .string(name)], "points": 4711, "tier": "Gold", "serialNumber": .string(serial)]
    }

    @Test(arguments: Engine.selected)
    func anErasedHolderIsFoundNowhereAndTheDeviceGetsTheVoidedPass(engine: Engine) async throws {
        try await withService(engine: engine) { server in
            let client = server.client
            _ = try await server.issue(serial: "ERASE-1", data: Self.record("ERASE-1"))
            #expect(try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/ERASE-1", json: ["data": ["points": 4712]]).status == 200)
            // A second pass of the same member, issued by a bulk job (its upload line holds the record too).
            let line = Self.record("ERASE-2").data + Data("\n".utf8)
            let job = try await client.send(
                "POST", "/api/v1/templates/loyalty/jobs", headers: [("Authorization", "Bearer \(server.adminToken)"), ("Content-Type", "application/jsonl")], body: line)
            #expect(job.status == 202, "\(job)")
            let jobID = try #require(try job.json()["id"].string)
            for _ in 0..<500 where try await server.api("GET", "/api/v1/jobs/\(jobID)").json()["state"] != "completed" {
                try await Task.sleep(for: .milliseconds(20))
            }
            // A device holds the first pass, and its log names it.
            let token = try #require(try await server.servedPass(Self.loyalty, "ERASE-1").authenticationToken)
            let auth = [("Authorization", "ApplePass \(token)")]
            #expect(try await client.send(
                "POST", "/wallet/v1/devices/device-e/registrations/\(Self.loyalty)/ERASE-1", headers: auth, body: Data(#"{"pushToken":"e1"}"#.utf8)).status == 201)
            let listPath = "/wallet/v1/devices/device-e/registrations/\(Self.loyalty)"
            let tag = try #require(try await client.send("GET", listPath).json()["lastUpdated"].string)
            #expect(try await client.send("POST", "/wallet/v1/log", headers: [("Content-Type", "application/json")],
                                          body: Data(#"{"logs":["Get pass task (pass type pass.dev.passwright.loyalty, serial number ERASE-1) for Zelda Quux-Holderova"]}"#.utf8)).status == 200)

            // The export holds both passes with the holder's data and the first one's history and device.
            let lookup: JSON = ["field": "member.id", "value": .string(Self.memberID)]
            let export = try await server.api("POST", "/api/v1/exports", json: lookup)
            #expect(export.status == 200, "\(export)")
            let exported = try export.json()["passes"].array ?? []
            #expect(exported.compactMap { $0["serialNumber"].string }.sorted() == ["ERASE-1", "ERASE-2"])
            let first = try #require(exported.first { $0["serialNumber"] == "ERASE-1" })
            #expect(first["data"]["member"]["name"].string == Self.name)
            #expect(first["history"].array?.first?["changes"] == ["data.points"])
            #expect(first["devices"].array?.first?["deviceLibraryIdentifier"] == "device-e")
            #expect(first["events"].array?.map { $0["type"] } == ["pass.issued", "pass.updated", "pass.installed"])

            // Erase by the member id: both passes, each voided and pushed.
            let erased = try await server.api("POST", "/api/v1/erasures", json: lookup)
            #expect(erased.status == 200, "\(erased) \(server.logs.text.suffix(1500))")
            let passes = try erased.json()["erased"].array ?? []
            #expect(passes.compactMap { $0["serialNumber"].string }.sorted() == ["ERASE-1", "ERASE-2"])
            #expect(passes.allSatisfy { $0["alreadyErased"] == false })
            #expect(passes.first { $0["serialNumber"] == "ERASE-1" }?["pushesQueued"] == 1)
            let again = try await server.api("DELETE", "/api/v1/passes/\(Self.loyalty)/ERASE-1")
            let repeated = try again.json()["erased"].array?.first?["alreadyErased"]
            #expect(again.status == 200 && repeated == true, "\(again)")
            #expect(try await server.api("DELETE", "/api/v1/passes/\(Self.loyalty)/NO-SUCH").status == 404)
            let refused = try await server.api("PATCH", "/api/v1/passes/\(Self.loyalty)/ERASE-1", json: ["data": ["points": 1]])
            #expect(refused.status == 409 && refused.text.contains("erased"), "\(refused)")

            // The device learns of the change and fetches a voided pass holding nothing of the holder.
            let listed = try await client.send("GET", "\(listPath)?passesUpdatedSince=\(tag)")
            #expect(try listed.json()["serialNumbers"] == ["ERASE-1"], "\(listed)")
            let fetched = try await client.send("GET", "/wallet/v1/passes/\(Self.loyalty)/ERASE-1", headers: auth)
            #expect(fetched.status == 200, "\(fetched)")
            let pass = try ServedPass(archive: fetched.body)
            #expect(pass.passJSON["voided"] == true)
            #expect(pass.passJSON["barcodes"] == .null, "a code of the blanked member id is left out, not signed empty")
            #expect(!String(decoding: fetched.body, as: UTF8.self).contains("Quux") && !pass.passJSON.description.contains(Self.memberID))

            // Audited, without the erased values; the export of the tombstone is empty of them too.
            let audit = try await server.api("GET", "/api/v1/audit?action=pass.erase")
            #expect((try audit.json()["entries"].array ?? []).compactMap { $0["target"].string }.sorted()
                    == ["pass \(Self.loyalty)/ERASE-1", "pass \(Self.loyalty)/ERASE-2"])
            let tombstone = try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/ERASE-1/export")
            #expect(try tombstone.json()["passes"].array?.first?["erasedAt"].string != nil)
            #expect(try tombstone.json()["passes"].array?.first?["history"] == [])
            #expect(try await server.api("POST", "/api/v1/exports", json: lookup).json()["passes"] == [])

            // Nowhere in the database.
            let stored = try await Self.databaseBytes(server.service.configuration.database)
            for value in [Self.name, Self.memberID, "Quux"] {
                #expect(!Self.holds(stored, value), "'\(value)' is still in the database")
            }
            #expect(stored.range(of: Data("ERASE-1".utf8)) != nil, "the tombstone's serial is in what was read (the check reads the data)")
        }
    }

    /// A key limited to some templates erases and exports by value only within one it names, so it
    /// cannot reach another template's holders.
    @Test func aKeyLimitedToSomeTemplatesLooksOnlyWithinOneItNames() async throws {
        try await withService(engine: .sqlite) { server in
            _ = try await server.issue(serial: "LIMIT-1", data: Self.record("LIMIT-1"))
            let key = try await OrderErasureTests.key(server, scopes: ["passes:erase", "passes:read"], templates: ["coupon"])
            let lookup: JSON = ["field": "member.id", "value": .string(Self.memberID)]
            for path in ["/api/v1/erasures", "/api/v1/exports"] {
                let unnamed = try await OrderErasureTests.send(server, "POST", path, key: key, json: lookup)
                #expect(unnamed.status == 403 && unnamed.text.contains("coupon"), "\(path): \(unnamed)")
                var other = lookup
                other["template"] = "loyalty"
                #expect(try await OrderErasureTests.send(server, "POST", path, key: key, json: other).status == 403, "\(path)")
                other["template"] = "coupon"
                let allowed = try await OrderErasureTests.send(server, "POST", path, key: key, json: other)
                #expect(allowed.status == 200, "\(path): \(allowed)")
            }
            #expect(try await server.api("GET", "/api/v1/passes/\(Self.loyalty)/LIMIT-1").json()["voided"] == false, "the loyalty pass was not erased")
        }
    }

    /// Whether `stored` (``databaseBytes(_:)``) holds `value`: as text, or as the hex a PostgreSQL
    /// dump writes a `bytea` column in (a stored answer's body, say).
    static func holds(_ stored: Data, _ value: String) -> Bool {
        stored.range(of: Data(value.utf8)) != nil || stored.range(of: Data(value.utf8.map { String(format: "%02x", $0) }.joined().utf8)) != nil
    }

    /// Every byte the database keeps: the SQLite file and its write-ahead log, or a PostgreSQL dump of
    /// the test's schema.
    static func databaseBytes(_ configuration: DatabaseConfiguration) async throws -> Data {
        switch configuration.location {
        case .sqliteFile(let path):
            var bytes = Data()
            for suffix in ["", "-wal", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
                bytes += try Data(contentsOf: URL(fileURLWithPath: path + suffix))
            }
            return bytes
        case .postgres(let url):
            let parts = try #require(URLComponents(string: url))
            let schema = try #require(parts.queryItems?.first { $0.name == "options" }?.value?.components(separatedBy: "search_path=").last)
            var plain = parts
            plain.query = nil
            let dump = try #require(try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql").sorted().last.map { "/usr/lib/postgresql/\($0)/bin/pg_dump" })
            let result = try await Subprocess.run(URL(fileURLWithPath: dump), ["--data-only", "--schema", schema, "--dbname", try #require(plain.string)])
            try #require(result.status == 0, "pg_dump: \(result)")
            return result.stdout
        case .sqliteMemory:
            Issue.record("an in-memory database has no file to read")
            return Data()
        }
    }
}
