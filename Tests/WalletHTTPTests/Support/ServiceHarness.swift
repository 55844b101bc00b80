import Foundation
import HTTPServer
import PasswrightTesting
import Signing
import Storage
import Testing
import WalletCore
import WalletHTTP

/// The databases the service runs on in these tests (a SQLite file and a real PostgreSQL): the test
/// kit's ``TestEngine``, under the name these suites know it by.
typealias Engine = TestEngine

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

    /// The local target of the `.pkpass` under a holder link (`…/pass.pkpass?…`).
    static func passTarget(of downloadURL: String) throws -> String {
        let components = try URLComponents(string: downloadURL).orThrow("bad downloadURL \(downloadURL)")
        return components.percentEncodedPath + "/pass.pkpass" + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
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

/// Percent-encodes a path segment: everything but RFC 3986's unreserved ASCII, as a strict client would.
func escape(_ segment: String) -> String {
    QueryComponent.escaped(segment)
}

/// Starts `WalletService` in-process on 127.0.0.1 port 0 with the real `Templates/`, the shared dev
/// identities (or the `identities` folder given), a fresh database and a known admin token; runs `body`; then stops the server and
/// removes the database, whatever happened. `push` turns push refresh on (pushes go where it says),
/// drained as `pushWorker` says.
func withService<T>(
    engine: Engine = .sqlite, linkLifetime: Duration = .seconds(3600), push: PushSettings = PushSettings(enabled: false),
    pushWorker: PushWorkerConfiguration = PushWorkerConfiguration(), notifications: NotificationPolicy = .off, identities: URL? = nil,
    console: Bool = true, webhookWorker: WebhookWorkerConfiguration = .tests, bulkJobWorker: BulkJobWorkerConfiguration = .tests,
    walletBadges: URL? = nil, _ body: (TestService) async throws -> T
) async throws -> T {
    try await engine.withLocation { database in
        try await withService(
            on: database, linkLifetime: linkLifetime, push: push, pushWorker: pushWorker, notifications: notifications, identities: identities,
            console: console, webhookWorker: webhookWorker, bulkJobWorker: bulkJobWorker, walletBadges: walletBadges, body)
    }
}

extension WebhookWorkerConfiguration {
    /// Retries within a second or two (the schedule's shape, not its length), a short lease.
    static var tests: WebhookWorkerConfiguration {
        WebhookWorkerConfiguration(
            lease: .seconds(5), timeout: .seconds(5),
            retryDelays: [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600)], jitter: 0.1, idleDelay: .seconds(2))
    }
}

extension BulkJobWorkerConfiguration {
    /// A short lease and idle wait, so a test that stops an instance sees its records taken over soon.
    static var tests: BulkJobWorkerConfiguration {
        BulkJobWorkerConfiguration(lease: .seconds(3), batchSize: 50, idleDelay: .seconds(2))
    }
}

/// Like ``withService(engine:linkLifetime:push:pushWorker:_:)`` on a database the caller owns, so a
/// test can stop a service and start another on the same data; `templates` is the folder it
/// imports at start.
func withService<T>(
    on database: DatabaseConfiguration, linkLifetime: Duration = .seconds(3600), push: PushSettings = PushSettings(enabled: false),
    pushWorker: PushWorkerConfiguration = PushWorkerConfiguration(), notifications: NotificationPolicy = .off,
    identities folder: URL? = nil, console: Bool = true, webhookWorker: WebhookWorkerConfiguration = .tests,
    bulkJobWorker: BulkJobWorkerConfiguration = .tests, linkKey sharedLinkKey: Data? = nil, adminToken sharedAdminToken: String? = nil,
    walletBadges: URL? = nil, templates: URL = Samples.templatesFolder, _ body: (TestService) async throws -> T
) async throws -> T {
    let identitiesFolder = try folder ?? ServiceIdentities.shared().folder
    // Instances sharing a database share these, as the README asks.
    let adminToken = sharedAdminToken ?? "admin-" + UUID().uuidString
    let linkKey = sharedLinkKey ?? Data(UUID().uuidString.utf8)
    let logs = LogCapture()
    var configuration = ServiceConfiguration(
        database: database, templatesDirectory: templates, identitiesDirectory: identitiesFolder,
        publicURL: TestService.publicURL, adminToken: adminToken, downloadLinkKey: linkKey, downloadLinkLifetime: linkLifetime,
        push: push, notifications: notifications)
    configuration.console = console
    configuration.walletBadgesDirectory = walletBadges?.path
    let service = try WalletService(
        configuration: configuration,
        // The handler time limit is the server's own concern (HTTPServerTests); here it must not fire
        // because a sanitizer build lints and draws ten times slower with tests running in parallel.
        http: HTTPServerConfiguration(hostname: "127.0.0.1", port: 0, threadCount: 2, requestTimeLimit: .seconds(300)),
        pushWorker: pushWorker, webhookWorker: webhookWorker, bulkJobWorker: bulkJobWorker, logger: logs.logger)
    let running = Task { try await service.run() }
    do {
        let port = try await service.waitUntilListening()
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
