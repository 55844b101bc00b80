import Foundation
import HTTPServer
import PasswrightTesting
import Storage
import Testing
@testable import WalletCore
@testable import WalletHTTP

/// `/readyz` says "not ready" while traffic can only fail, and names why; start-up waits for the
/// database; a public URL Wallet cannot call is a warning.
@Suite struct ReadinessTests {
    static func body(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func noUsableTemplateIs503NamingEachReason() throws {
        let reason = "Cannot read /srv/Certificates/pass.a/private-key.pem: permission denied: the server runs as user passwright (uid 999)"
        let readiness = Readiness(databaseAnswers: true, templates: ["loyalty": reason, "coupon": "lint found 1 error"], stoppedPushIdentities: [:])
        let response = readiness.response
        #expect(response.status == .serviceUnavailable)
        let body = try Self.body(response)
        #expect((body["unavailableTemplates"] as? [String: String])?["loyalty"] == reason)
        #expect((body["detail"] as? String)?.contains("permission denied") == true)
        #expect((body["detail"] as? String)?.contains("no template can issue passes") == true)
    }

    @Test func databaseNotAnsweringIs503() throws {
        let response = Readiness(databaseAnswers: false, templates: ["loyalty": nil], stoppedPushIdentities: [:]).response
        #expect(response.status == .serviceUnavailable)
        #expect(try Self.body(response)["database"] as? String == "unavailable")
    }

    @Test func oneUsableTemplateIsReadyAndNamesTheOthers() throws {
        let all = Readiness(databaseAnswers: true, templates: ["loyalty": nil], stoppedPushIdentities: [:]).response
        #expect(all.status == .ok)
        #expect(try Self.body(all)["status"] as? String == "ready")
        let some = Readiness(databaseAnswers: true, templates: ["loyalty": nil, "coupon": "no identity"], stoppedPushIdentities: [:]).response
        #expect(some.status == .ok)
        let body = try Self.body(some)
        #expect(body["status"] as? String == "degraded")
        #expect((body["unavailableTemplates"] as? [String: String])?["coupon"] == "no identity")
    }

    @Test func startUpRetriesTheDatabaseWithBackoffThenGivesUp() async throws {
        // Port 1 (tcpmux) has no listener here: every attempt is refused.
        let database = try DatabaseConfiguration(url: "postgres://passwright@127.0.0.1:1/passwright?connect_timeout=1")
        let logs = LogCapture()
        // Generous: libpq connects block a thread, and under ThreadSanitizer on a busy machine one refused
        // attempt has taken more than 8 s (then no retry fits in the limit and the test proves nothing).
        let startup = DatabaseStartup(limit: .seconds(15), initialDelay: .milliseconds(50), maximumDelay: .milliseconds(100))
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: StorageError.self) { _ = try await startup.open(database, poolSize: 1, logger: logs.logger) }
        #expect(clock.now - started < .seconds(45), "the limit bounds the wait")
        let retries = logs.recorded.filter { $0.message == "database does not answer yet; retrying" }
        #expect(retries.count >= 1, "\(logs.text)")
        #expect(logs.recorded.contains { $0.message == "database does not answer; giving up" })
    }

    @Test(arguments: [
        ("http://0.0.0.0:8080", true), ("http://localhost:8080", true), ("https://passes.example.com", false),
    ])
    func publicURLWalletCannotCallIsAWarning(url: String, warns: Bool) throws {
        let configuration = ServiceConfiguration(
            database: .sqlite(path: ":memory:"), templatesDirectory: URL(fileURLWithPath: "/nonexistent"),
            identitiesDirectory: URL(fileURLWithPath: "/nonexistent"), publicURL: url, adminToken: "t", downloadLinkKey: Data("k".utf8))
        #expect((configuration.publicURLWarning != nil) == warns, "\(configuration.publicURLWarning ?? "none")")
    }
}
