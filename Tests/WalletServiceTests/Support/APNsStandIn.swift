import Foundation
import PasswrightTesting
import Testing
import WalletService

/// One request the APNs stand-in received, read back from its record file.
struct StandInRequest: Sendable {
    /// When the stand-in answered it (UNIX seconds).
    let time: Double
    /// The stand-in's number for the TLS connection it came on (1, 2, … in accept order).
    let connection: Int
    let method: String
    let path: String
    /// Regular headers (pseudo-headers left out), names in lower case as HTTP/2 sends them.
    let headers: [String: String]
    let body: String
    /// The verified client certificate's subject, e.g. `UID=pass.dev…,CN=Pass Type ID: …`.
    let clientSubject: String

    /// The device token at the end of `/3/device/<token>`.
    var token: String { path.hasPrefix("/3/device/") ? String(path.dropFirst("/3/device/".count)) : "" }

    init(_ line: JSON) throws {
        time = try line["time"].number.orThrow("record line without time: \(line)")
        connection = Int(try line["connection"].number.orThrow("record line without connection: \(line)"))
        method = line["method"].string ?? ""
        path = line["path"].string ?? ""
        headers = (line["headers"].object ?? [:]).compactMapValues(\.string)
        body = line["body"].string ?? ""
        clientSubject = line["client_subject"].string ?? ""
    }
}

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

    /// Starts a stand-in whose files live in `folder`.
    static func start(in folder: URL, rules: [String: JSON] = [:], maxConcurrentStreams: Int? = nil) async throws -> APNsStandIn {
        let certificate = try await StandInCertificate.shared.value
        let recordFile = folder.appendingPathComponent("apns-requests.jsonl")
        let rulesFile = folder.appendingPathComponent("apns-rules.json")
        try write(rules: rules, to: rulesFile)
        let process = try await onThread {
            try APNsStandInProcess(
                caFile: certificate.rootCA, certificate: certificate.certificate, key: certificate.key, recordFile: recordFile,
                rulesFile: rulesFile, maxConcurrentStreams: maxConcurrentStreams)
        }
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
        guard let data = FileManager.default.contents(atPath: recordFile.path) else { return [] }
        // The last element is empty when the file ends with a newline, or a line still being written.
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        return try lines.map { try StandInRequest(JSON(parsing: Data($0))) }
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
func withStandIn<T>(rules: [String: JSON] = [:], maxConcurrentStreams: Int? = nil, _ body: (APNsStandIn) async throws -> T) async throws -> T {
    try await withScratch { folder in
        let standIn = try await APNsStandIn.start(in: folder, rules: rules, maxConcurrentStreams: maxConcurrentStreams)
        do {
            let result = try await body(standIn)
            await standIn.stop()
            return result
        } catch {
            await standIn.stop()
            throw error
        }
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
        let rootKey = identities.rootKey
        let key = folder.appendingPathComponent("server-key.pem")
        let request = folder.appendingPathComponent("server.csr")
        let certificate = folder.appendingPathComponent("server.pem")
        let extensions = folder.appendingPathComponent("server.ext")
        // The key file exists with mode 0600 before openssl writes into it.
        guard FileManager.default.createFile(atPath: key.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw FixtureError("cannot create \(key.path)")
        }
        try Data("""
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1,DNS:localhost

            """.utf8).write(to: extensions)
        let made = try await Subprocess.tool("openssl", [
            "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-subj", "/CN=localhost/O=APNs stand-in", "-out", request.path,
        ])
        guard made.status == 0 else { throw FixtureError("openssl req failed: \(made)") }
        let serial = "0x" + (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let signed = try await Subprocess.tool("openssl", [
            "x509", "-req", "-in", request.path, "-CA", identities.rootCA.path, "-CAkey", rootKey.path, "-set_serial", serial,
            "-days", "2", "-sha256", "-extfile", extensions.path, "-out", certificate.path,
        ])
        guard signed.status == 0 else { throw FixtureError("openssl x509 -req failed: \(signed)") }
        return StandInCertificate(rootCA: identities.rootCA, certificate: certificate, key: key)
    }
}
