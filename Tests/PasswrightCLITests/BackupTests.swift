import Foundation
import PasswrightTesting
import Locking
import Testing

/// `passwright backup` and `restore` against a real server: a copy taken while clients keep issuing
/// holds every pass and registration acknowledged before it began, and restores into a database a
/// new server serves.
@Suite("backup and restore")
struct BackupTests {
    static let adminToken = "backup-admin-token-0123456789abcdef"
    static let passType = "pass.dev.passwright.loyalty"

    /// A server on `data` with the loyalty template, for `body`; always stopped.
    func withServer<T>(data: URL, templates: URL, database: String? = nil,
                       _ body: (ServeChild, RawHTTPClient) async throws -> T) async throws -> T {
        let identities = try await DevIdentities.shared.folder()
        return try await withServeChild([
            "--data-dir", data.path, "--templates", templates.path, "--identities", identities.root.path,
        ] + (database.map { ["--database", $0] } ?? []) + [
            "--public-url", "https://passes.example.test", "--push", "off", "--log-level", "warning",
        ], environment: ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken]) { served in
            try await body(served, RawHTTPClient(port: served.port))
        }
    }

    /// Issues `serial` with a known device token; the status the server answered.
    static func issue(_ client: RawHTTPClient, serial: String) async throws -> Int {
        var record = try JSONSerialization.jsonObject(with: Data(contentsOf: Samples.sample("loyalty.json"))) as? [String: Any] ?? [:]
        record["authenticationToken"] = "token-\(serial)-0123456789"
        let body = try JSONSerialization.data(withJSONObject: ["template": "loyalty", "serialNumber": serial, "data": record])
        return try await client.send("POST", "/api/v1/passes", headers: [
            ("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json"),
        ], body: body).status
    }

    /// Registers device `device` for `serial` through the Wallet web service.
    static func register(_ client: RawHTTPClient, device: String, serial: String) async throws -> Int {
        try await client.send("POST", "/wallet/v1/devices/\(device)/registrations/\(passType)/\(serial)", headers: [
            ("Authorization", "ApplePass token-\(serial)-0123456789"), ("Content-Type", "application/json"),
        ], body: Data(#"{"pushToken":"0a1b2c"}"#.utf8)).status
    }

    @Test("a backup taken under write load restores every write acknowledged before it; integrity ok")
    func backupUnderLoad() async throws {
        try await withScratch { scratch in
            let templates = try Samples.loyaltyTemplates(in: scratch)
            let data = scratch.appendingPathComponent("data")
            let backup = scratch.appendingPathComponent("passwright-backup.sqlite")

            let (before, ackedBeforeBackup) = try await withServer(data: data, templates: templates) { _, client in
                // Acknowledged before the backup: 20 passes, each registered on a device.
                for index in 0..<20 {
                    #expect(try await Self.issue(client, serial: "B-\(index)") == 201)
                    #expect(try await Self.register(client, device: "device-\(index % 4)", serial: "B-\(index)") == 201)
                }
                // Writers keep issuing from four clients while the backup runs.
                let stop = Locked(false)
                let acknowledged = Locked<[String]>([])
                let (during, ackedBefore) = try await withThrowingTaskGroup(of: Int.self) { group in
                    for writer in 0..<4 {
                        group.addTask {
                            var issued = 0
                            while !stop.withLock({ $0 }) {
                                let serial = "L-\(writer)-\(issued)"
                                if try await Self.issue(client, serial: serial) == 201 {
                                    acknowledged.withLock { $0.append(serial) }
                                    issued += 1
                                }
                            }
                            return issued
                        }
                    }
                    try await Task.sleep(for: .milliseconds(300))
                    let ackedBefore = acknowledged.withLock { $0 }
                    let result = try await CLI.run(["backup", "--out", backup.path, "--data-dir", data.path])
                    #expect(result.status == 0, "\(result)")
                    #expect(result.out.contains("integrity ok"), "\(result)")
                    // A restore now must be refused: the server has the database open.
                    let refused = try await CLI.run(["restore", "--from", backup.path, "--data-dir", data.path])
                    #expect(refused.status == 1 && refused.err.contains("running server"), "\(refused)")
                    stop.withLock { $0 = true }
                    return (try await group.reduce(0, +), ackedBefore)
                }
                #expect(during > ackedBefore.count, "the writers issued nothing while the backup ran")
                return (20, ackedBefore)
            }

            // The copy on its own is sound, checked by SQLite itself through Python, not by our code.
            // Every write acknowledged before the backup began is in it (those during it may be too).
            let integrity = try await Subprocess.tool("python3", ["-c", """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                serials = {row[0] for row in db.execute('SELECT serial_number FROM passes')}
                acked = sys.argv[2].split(',') if sys.argv[2] else []
                print(db.execute('PRAGMA integrity_check').fetchone()[0], sum(1 for s in serials if s.startswith('B-')),
                      sum(1 for s in acked if s not in serials))
                """, backup.path, ackedBeforeBackup.joined(separator: ",")])
            #expect(integrity.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok \(before) 0", "integrity, passes before, acknowledged but missing: \(integrity)")
            #expect(!ackedBeforeBackup.isEmpty, "no write was acknowledged under load before the backup began")

            let restored = scratch.appendingPathComponent("restored")
            let result = try await CLI.run(["restore", "--from", backup.path, "--data-dir", restored.path])
            #expect(result.status == 0, "\(result)")
            try await withServer(data: restored, templates: templates) { _, client in
                for index in 0..<before {
                    let pass = try await client.send("GET", "/api/v1/passes/\(Self.passType)/B-\(index)/pkpass",
                                                     headers: [("Authorization", "Bearer \(Self.adminToken)")])
                    #expect(pass.status == 200 && pass.header("Content-Type") == "application/vnd.apple.pkpass", "B-\(index): \(pass.status)")
                }
                for device in 0..<4 {
                    let listed = try await client.send("GET", "/wallet/v1/devices/device-\(device)/registrations/\(Self.passType)")
                    #expect(listed.status == 200, "device-\(device): \(listed)")
                    let serials = (try JSONSerialization.jsonObject(with: listed.body) as? [String: Any])?["serialNumbers"] as? [String] ?? []
                    #expect(Set(serials) == Set(stride(from: device, to: before, by: 4).map { "B-\($0)" }), "device-\(device): \(serials)")
                }
            }
        }
    }

    @Test("restore refuses a file that is not a Passwright database, naming it; backup refuses PostgreSQL with pg_dump's way")
    func refusals() async throws {
        try await withScratch { scratch in
            let junk = scratch.appendingPathComponent("junk.sqlite")
            try Data("not a database at all".utf8).write(to: junk)
            let data = scratch.appendingPathComponent("data")
            let refused = try await CLI.run(["restore", "--from", junk.path, "--data-dir", data.path])
            #expect(refused.status == 1 && refused.err.contains(junk.path) && refused.err.contains("passwright backup"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("passwright.sqlite").path), "nothing may be written")

            let postgres = try await CLI.run(["backup", "--out", scratch.appendingPathComponent("x").path,
                                              "--database", "postgres://passwright:secret-password@127.0.0.1:5432/passwright"])
            #expect(postgres.status == 64 && postgres.err.contains("pg_dump -Fc"), "\(postgres)")
            #expect(!postgres.err.contains("secret-password"), "the password must not be printed")
        }
    }

    /// PostgreSQL's way, as docs/backups.md gives it: `pg_dump -Fc` of a live database, `pg_restore`
    /// into a fresh one, and a server on the copy serves what the original held.
    @Test("pg_dump and pg_restore carry passes and registrations to a new database")
    func postgresDumpAndRestore() async throws {
        guard let url = ProcessInfo.processInfo.environment["PASSWRIGHT_TEST_POSTGRES_URL"],
              var components = URLComponents(string: url) else {
            if ProcessInfo.processInfo.environment["PASSWRIGHT_SKIP_POSTGRES"] == "1" { return }
            Issue.record("PASSWRIGHT_TEST_POSTGRES_URL is not set (scripts/test.sh starts a throwaway PostgreSQL)")
            return
        }
        let bin = "/usr/lib/postgresql/15/bin"
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let (source, copy) = ("backup_src_\(suffix)", "backup_dst_\(suffix)")
        func databaseURL(_ name: String) -> String {
            components.path = "/\(name)"
            return components.string ?? url
        }
        func psql(_ sql: String) async throws {
            let result = try await Subprocess.run(URL(fileURLWithPath: "\(bin)/psql"), [url, "-v", "ON_ERROR_STOP=1", "-qc", sql])
            #expect(result.status == 0, "\(sql): \(result)")
        }
        try await psql("CREATE DATABASE \(source)")
        try await psql("CREATE DATABASE \(copy)")
        try await withCleanup {
            try await withScratch { scratch in
                let templates = try Samples.loyaltyTemplates(in: scratch)
                let data = scratch.appendingPathComponent("data")
                try await withServer(data: data, templates: templates, database: databaseURL(source)) { _, client in
                    for index in 0..<5 {
                        #expect(try await Self.issue(client, serial: "P-\(index)") == 201)
                        #expect(try await Self.register(client, device: "device-pg", serial: "P-\(index)") == 201)
                    }
                    // Dumped while the server runs: pg_dump reads one snapshot.
                    let dump = scratch.appendingPathComponent("passwright.dump")
                    let dumped = try await Subprocess.run(URL(fileURLWithPath: "\(bin)/pg_dump"), ["-Fc", "--file", dump.path, databaseURL(source)])
                    #expect(dumped.status == 0, "\(dumped)")
                    let restored = try await Subprocess.run(URL(fileURLWithPath: "\(bin)/pg_restore"),
                                                            ["--no-owner", "--dbname", databaseURL(copy), dump.path])
                    #expect(restored.status == 0, "\(restored)")
                }
                try await withServer(data: data, templates: templates, database: databaseURL(copy)) { _, client in
                    for index in 0..<5 {
                        let pass = try await client.send("GET", "/api/v1/passes/\(Self.passType)/P-\(index)/pkpass",
                                                         headers: [("Authorization", "Bearer \(Self.adminToken)")])
                        #expect(pass.status == 200, "P-\(index): \(pass.status)")
                    }
                    let listed = try await client.send("GET", "/wallet/v1/devices/device-pg/registrations/\(Self.passType)")
                    let serials = (try JSONSerialization.jsonObject(with: listed.body) as? [String: Any])?["serialNumbers"] as? [String] ?? []
                    #expect(Set(serials) == Set((0..<5).map { "P-\($0)" }), "\(listed)")
                }
            }
        } cleanup: {
            try? await psql("DROP DATABASE IF EXISTS \(source) WITH (FORCE)")
            try? await psql("DROP DATABASE IF EXISTS \(copy) WITH (FORCE)")
        }
    }
}
