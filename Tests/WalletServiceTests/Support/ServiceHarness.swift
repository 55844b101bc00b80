import Logging
import Locking
import Foundation
import HTTPServer
import Signing
import Storage
import Testing
import WalletService

/// The databases the service runs on in these tests: a SQLite file and a real PostgreSQL.
///
/// PostgreSQL is always included unless `PASSWRIGHT_SKIP_POSTGRES=1` is set explicitly; without
/// `PASSWRIGHT_TEST_POSTGRES_URL` its cases fail, so CI cannot skip them by accident.
enum Engine: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let selected: [Engine] = ProcessInfo.processInfo.environment["PASSWRIGHT_SKIP_POSTGRES"] == "1" ? [.sqlite] : allCases

    var testDescription: String { rawValue }

    /// A private, empty database for one test (a temp SQLite file, or a fresh PostgreSQL schema),
    /// removed afterwards.
    func withLocation<T>(_ body: (DatabaseConfiguration) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-service-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(.sqlite(path: folder.appendingPathComponent("passwright.sqlite").path))
        case .postgres:
            return try await Self.withPostgresSchema { url in try await body(try DatabaseConfiguration(url: url)) }
        }
    }

    /// A fresh PostgreSQL schema for one test, as a database URL a `passwright serve` child can take
    /// too; dropped afterwards.
    static func withPostgresSchema<T>(_ body: (String) async throws -> T) async throws -> T {
        guard let url = ProcessInfo.processInfo.environment["PASSWRIGHT_TEST_POSTGRES_URL"], !url.isEmpty else {
            throw MissingPostgres()
        }
        let schema = "svc_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        let admin = try await DatabaseConfiguration(url: url).open(poolSize: 1)
        // The schema name is generated above from hex digits only, never from input.
        try await admin.execute(SQL(unsafeText: "CREATE SCHEMA \(schema)"))
        do {
            let separator = url.contains("?") ? "&" : "?"
            let result = try await body("\(url)\(separator)options=-csearch_path%3D\(schema)")
            try await admin.execute(SQL(unsafeText: "DROP SCHEMA \(schema) CASCADE"))
            await admin.close()
            return result
        } catch {
            _ = try? await admin.execute(SQL(unsafeText: "DROP SCHEMA \(schema) CASCADE"))
            await admin.close()
            throw error
        }
    }
}

struct MissingPostgres: Error, CustomStringConvertible {
    var description: String {
        "PASSWRIGHT_TEST_POSTGRES_URL is not set. Run the tests against a throwaway server: "
            + "export PASSWRIGHT_TEST_POSTGRES_URL=$(scripts/postgres.sh start /tmp/pw-pg 54329), then "
            + "swift test --filter WalletServiceTests, then scripts/postgres.sh stop /tmp/pw-pg "
            + "(or set PASSWRIGHT_SKIP_POSTGRES=1 to leave PostgreSQL out on purpose)."
    }
}

/// Log events the in-process service wrote, so tests can check what reached the log.
final class LogCapture: Sendable {
    private let events = Locked<[LogEvent]>([])

    func append(_ event: LogEvent) { events.withLock { $0.append(event) } }

    /// Every event as its JSON line, one per line.
    var text: String { events.withLock { $0.map(\.jsonLine).joined(separator: "\n") } }
}

/// A running service and what a test needs to talk to it.
struct TestService: Sendable {
    let service: WalletService
    let client: RawHTTPClient
    let adminToken: String
    let linkKey: Data
    let logs: LogCapture
    static let publicURL = "https://passes.example.test"

    /// `Authorization: Bearer <admin token>` plus JSON content type, for the issuing API.
    var admin: [(String, String)] { [("Authorization", "Bearer \(adminToken)"), ("Content-Type", "application/json")] }

    /// A JSON request to the admin API.
    func api(_ method: String, _ path: String, json: JSON? = nil) async throws -> RawResponse {
        try await client.send(method, path, headers: admin, body: json?.data)
    }

    /// Issues a pass and returns the 201 response's JSON, failing the test on any other status.
    func issue(template: String = "loyalty", serial: String, data: JSON? = nil, extra: [String: JSON] = [:]) async throws -> JSON {
        var request: JSON = ["template": .string(template), "serialNumber": .string(serial), "data": try data ?? Samples.record(template)]
        for (key, value) in extra { request[key] = value }
        let response = try await api("POST", "/api/v1/passes", json: request)
        try #require(response.status == 201, "issue failed: \(response)")
        return try response.json()
    }

    /// The path and query of a download URL from the API (the public host is a proxy's, not ours).
    static func localTarget(of downloadURL: String) throws -> String {
        let components = try URLComponents(string: downloadURL).orThrow("bad downloadURL \(downloadURL)")
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
    }

    /// The served pass of a pass, through the admin API.
    func servedPass(_ passType: String, _ serial: String) async throws -> ServedPass {
        let response = try await client.send("GET", "/api/v1/passes/\(escape(passType))/\(escape(serial))/pkpass", headers: admin)
        try #require(response.status == 200, "pkpass failed: \(response)")
        return try ServedPass(archive: response.body)
    }

    /// `GET /healthz` answers 200: the server survived what the test sent.
    func expectHealthy(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let health = try await client.send("GET", "/healthz")
        #expect(health.status == 200, "server no longer healthy: \(health)", sourceLocation: sourceLocation)
    }
}

/// Percent-encodes a path segment.
func escape(_ segment: String) -> String {
    segment.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? segment
}

/// Starts `WalletService` in-process on 127.0.0.1 port 0 with the real `Templates/`, the shared dev
/// identities, a fresh database and a known admin token; runs `body`; then stops the server and
/// removes the database, whatever happened. `push` turns push refresh on (pushes go where it says),
/// drained as `pushWorker` says.
func withService<T>(
    engine: Engine = .sqlite, linkLifetime: Duration = .seconds(3600), push: PushSettings = PushSettings(enabled: false),
    pushWorker: PushWorkerConfiguration = PushWorkerConfiguration(), _ body: (TestService) async throws -> T
) async throws -> T {
    try await engine.withLocation { database in
        try await withService(on: database, linkLifetime: linkLifetime, push: push, pushWorker: pushWorker, body)
    }
}

/// Like ``withService(engine:linkLifetime:push:pushWorker:_:)`` on a database the caller owns, so a
/// test can stop a service and start another on the same data.
func withService<T>(
    on database: DatabaseConfiguration, linkLifetime: Duration = .seconds(3600), push: PushSettings = PushSettings(enabled: false),
    pushWorker: PushWorkerConfiguration = PushWorkerConfiguration(), _ body: (TestService) async throws -> T
) async throws -> T {
    let identities = try ServiceIdentities.shared()
    let adminToken = "admin-" + UUID().uuidString
    let linkKey = Data(UUID().uuidString.utf8)
    let logs = LogCapture()
    let configuration = ServiceConfiguration(
        database: database, templatesDirectory: Samples.templatesFolder, identitiesDirectory: identities.folder,
        publicURL: TestService.publicURL, adminToken: adminToken, downloadLinkKey: linkKey, downloadLinkLifetime: linkLifetime,
        http: HTTPServerConfiguration(hostname: "127.0.0.1", port: 0, threadCount: 2), push: push)
    let service = try await WalletService(configuration: configuration, pushWorker: pushWorker, logger: Logger(label: "test", level: .debug) { logs.append($0) })
    let running = Task { try await service.run() }
    do {
        let port = try service.port.orThrow("the service has no bound port")
        let result = try await body(TestService(service: service, client: RawHTTPClient(port: port), adminToken: adminToken, linkKey: linkKey, logs: logs))
        running.cancel()
        try await running.value
        return result
    } catch {
        running.cancel()
        _ = try? await running.value
        throw error
    }
}
