import Foundation
import PasswrightTesting

/// The APNs stand-in for CLI tests: real HTTP/2 over TLS on 127.0.0.1 with a server certificate from
/// the development CA, accepting client certificates that chain to it, as the development identities do.
struct APNsTestHost {
    let process: APNsStandInProcess
    let recordFile: URL

    var url: URL { process.url }

    static func start(identities: DevIdentities.Folder, in folder: URL) async throws -> APNsTestHost {
        let own = folder.appendingPathComponent("apns-standin", isDirectory: true)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let certificate = try await onThread {
            try TLSServerCertificate.issue(by: identities.rootCA, caKey: identities.root.appendingPathComponent("dev-ca/root-key.pem"), in: own)
        }
        let recordFile = own.appendingPathComponent("requests.jsonl")
        let rulesFile = own.appendingPathComponent("rules.json")
        try Data("{}".utf8).write(to: rulesFile)
        let process = try APNsStandInProcess(
            caFile: identities.rootCA, certificate: certificate.certificate, key: certificate.key, recordFile: recordFile, rulesFile: rulesFile)
        return APNsTestHost(process: process, recordFile: recordFile)
    }

    /// The `apns-topic` of every push received so far.
    func topics() throws -> [String] {
        try APNsStandInRecord.read(from: recordFile).compactMap { $0.headers["apns-topic"] }
    }

    func stop() {
        process.stop()
    }
}
