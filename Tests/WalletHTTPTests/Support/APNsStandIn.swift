import Foundation
import PasswrightTesting
import Testing
import WalletCore
import WalletHTTP

/// One request the APNs stand-in received: the test kit's ``APNsStandInRecord``.
typealias StandInRequest = APNsStandInRecord

/// The APNs stand-in (the test kit's ``APNsStandInProcess``) with a server certificate from the dev
/// root CA, requiring a client certificate from that root (the Pass Type ID identities chain to it),
/// its rules and record read and written as ``JSON``.
final class APNsStandIn: Sendable {
    let port: Int
    let recordFile: URL
    let rulesFile: URL
    /// The root CA that issued the stand-in's certificate: what the push client must trust.
    let rootCA: URL
    private let process: APNsStandInProcess

    private init(recordFile: URL, rulesFile: URL, rootCA: URL, process: APNsStandInProcess) {
        port = process.port
        self.recordFile = recordFile
        self.rulesFile = rulesFile
        self.rootCA = rootCA
        self.process = process
    }

    var url: URL { process.url }

    /// Push settings that send to this stand-in.
    var pushSettings: PushSettings { PushSettings(enabled: true, apnsURL: url, caFile: rootCA) }

    /// `passwright serve` options that send to this stand-in.
    var serveArguments: [String] { ["--push", "on", "--apns-url", url.absoluteString, "--apns-ca-file", rootCA.path] }

    /// Starts a stand-in whose files live in `folder`; with `answerEarly` it answers each push on its
    /// headers, before the body, then resets the stream with RST_STREAM(NO_ERROR).
    static func start(in folder: URL, rules: [String: JSON] = [:], maxConcurrentStreams: Int? = nil, answerEarly: Bool = false) async throws -> APNsStandIn {
        let certificate = try await StandInCertificate.shared.value
        let recordFile = folder.appendingPathComponent("apns-requests.jsonl")
        let rulesFile = folder.appendingPathComponent("apns-rules.json")
        try write(rules: rules, to: rulesFile)
        let process = try APNsStandInProcess(
            caFile: certificate.rootCA, certificate: certificate.certificate, key: certificate.key, recordFile: recordFile,
            rulesFile: rulesFile, maxConcurrentStreams: maxConcurrentStreams, answerEarly: answerEarly)
        return APNsStandIn(recordFile: recordFile, rulesFile: rulesFile, rootCA: certificate.rootCA, process: process)
    }

    /// Replaces the rules (token → answer, see the stand-in's docstring) atomically; the stand-in
    /// reads them again before its next answer.
    func setRules(_ rules: [String: JSON]) throws {
        try Self.write(rules: rules, to: rulesFile)
    }

    private static func write(rules: [String: JSON], to file: URL) throws {
        try JSON.object(rules).data.write(to: file, options: .atomic)
    }

    /// Every request recorded so far, in the order answered.
    func requests() throws -> [StandInRequest] {
        try APNsStandInRecord.read(from: recordFile)
    }

    /// Polls the record (up to `timeout`) until `done` holds for it; returns the record then.
    func waitForRequests(
        timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation, until done: ([StandInRequest]) -> Bool
    ) async throws -> [StandInRequest] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let requests = try requests()
            if done(requests) { return requests }
            guard ContinuousClock.now < deadline else {
                throw FixtureError("the stand-in's record never reached the expected state in \(timeout); it has \(requests.count) requests")
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Stops the stand-in (SIGKILL: it keeps no state worth a graceful exit).
    func stop() async {
        process.stop()
    }
}

/// Runs `body` with a fresh stand-in in its own folder, stopped and removed afterwards.
func withStandIn<T>(
    rules: [String: JSON] = [:], maxConcurrentStreams: Int? = nil, answerEarly: Bool = false, _ body: (APNsStandIn) async throws -> T
) async throws -> T {
    try await withScratch { folder in
        let standIn = try await APNsStandIn.start(in: folder, rules: rules, maxConcurrentStreams: maxConcurrentStreams, answerEarly: answerEarly)
        return try await withCleanup { try await body(standIn) } cleanup: { await standIn.stop() }
    }
}

/// The stand-in's TLS server certificate (SAN IP:127.0.0.1, DNS:localhost), issued once per test
/// process by the dev root CA with the real `openssl` CLI; its files live in the shared identities
/// folder, removed at exit.
struct StandInCertificate: Sendable {
    let rootCA: URL
    let certificate: URL
    let key: URL

    static let shared = Task { try await issue() }

    private static func issue() async throws -> StandInCertificate {
        let identities = try ServiceIdentities.shared()
        let folder = identities.folder.appendingPathComponent("apns-standin", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let issued = try await onThread { try TLSServerCertificate.issue(by: identities.rootCA, caKey: identities.rootKey, in: folder) }
        return StandInCertificate(rootCA: identities.rootCA, certificate: issued.certificate, key: issued.key)
    }
}
