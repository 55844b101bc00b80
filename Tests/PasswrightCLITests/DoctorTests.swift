import Foundation
import PasswrightTesting
import Signing
import Testing

/// `passwright doctor` against real deployments on 127.0.0.1: `passwright serve` behind a real nginx
/// terminating TLS with a certificate from a test CA, and broken variants of it, each named with the
/// right fix. The good one also plays the whole device protocol and pushes to the APNs stand-in.
@Suite("doctor", .serialized)
struct DoctorTests {
    static let adminToken = "doctor-admin-token-0123456789abcdef"

    /// One finding of `doctor --json`.
    struct Finding: Decodable {
        var check: String
        var result: String
        var detail: String
        var fix: String
        var effect: String
    }

    /// A server with the loyalty template whose public URL is `https://localhost:<nginxPort>`, for `body`.
    func withServer<T>(in scratch: URL, nginxPort: Int, _ body: (ServeChild, DevIdentities.Folder) async throws -> T) async throws -> T {
        let identities = try await DevIdentities.shared.folder()
        let templates = try Samples.loyaltyTemplates(in: scratch)
        return try await withServeChild([
            "--data-dir", scratch.appendingPathComponent("data").path, "--templates", templates.path,
            "--identities", identities.root.path, "--public-url", "https://localhost:\(nginxPort)", "--push", "off", "--log-level", "warning",
        ], environment: ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken]) { served in
            try await body(served, identities)
        }
    }

    /// nginx on `port` with TLS from `certificate`, proxying to `upstream` as `locations` say.
    func withNginx<T>(in scratch: URL, port: Int, certificate: TLSServerCertificate, tls: String = "ssl_protocols TLSv1.2 TLSv1.3;",
                      locations: String, _ body: () async throws -> T) async throws -> T {
        let folder = scratch.appendingPathComponent("nginx-\(port)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let nginx = try await NginxProcess(folder: folder, port: port, serverBlock: """
            server {
                listen 127.0.0.1:\(port) ssl;
                server_name localhost;
                ssl_certificate \(certificate.certificate.path);
                ssl_certificate_key \(certificate.key.path);
                \(tls)
                \(locations)
            }
            """)
        return try await withCleanup { try await body() } cleanup: { nginx.stop() }
    }

    /// `location /` passing everything through unchanged, as docs/deployment.md shows.
    static func passThrough(_ upstream: Int) -> String {
        """
        location / {
            proxy_pass http://127.0.0.1:\(upstream);
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
        }
        """
    }

    /// A certificate for localhost from the development CA, which `--ca-file` trusts.
    static func goodCertificate(_ identities: DevIdentities.Folder, in folder: URL) throws -> TLSServerCertificate {
        try TLSServerCertificate.issue(by: identities.rootCA, caKey: identities.root.appendingPathComponent("dev-ca/root-key.pem"), in: folder)
    }

    func doctor(_ arguments: [String], token: Bool = false) async throws -> (status: Int32, findings: [Finding], output: String) {
        let result = try await CLI.run(["doctor", "--json", "--timeout", "20"] + arguments, environment: token ? ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken] : [:])
        let findings = try JSONDecoder().decode([Finding].self, from: result.stdout)
        return (result.status, findings, "\(result)")
    }

    /// A record for the loyalty template without a serial number, so each run issues a new pass.
    static func record(in folder: URL) throws -> URL {
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: Samples.sample("loyalty.json"))) as? [String: Any] ?? [:]
        object["serialNumber"] = nil
        let file = folder.appendingPathComponent("record.json")
        try JSONSerialization.data(withJSONObject: object).write(to: file)
        return file
    }

    @Test("a good deployment passes every check, the device protocol and APNs included; exit 0")
    func goodDeployment() async throws {
        try await withScratch { scratch in
            let port = try NginxProcess.freePort()
            try await withServer(in: scratch, nginxPort: port) { served, identities in
                let certificate = try Self.goodCertificate(identities, in: scratch)
                let standIn = try await APNsTestHost.start(identities: identities, in: scratch)
                defer { standIn.stop() }
                try await withNginx(in: scratch, port: port, certificate: certificate, locations: Self.passThrough(served.port)) {
                    let (status, findings, output) = try await doctor([
                        "https://localhost:\(port)", "--ca-file", identities.rootCA.path, "--template", "loyalty",
                        "--record", try Self.record(in: scratch).path, "--identities", identities.root.path,
                        "--apns-url", standIn.url.absoluteString, "--apns-ca-file", identities.rootCA.path,
                    ], token: true)
                    #expect(status == 0, "\(output)")
                    let results = Dictionary(findings.map { ($0.check, $0.result) }, uniquingKeysWith: { first, _ in first })
                    for check in ["https", "tls.version", "tls.trust", "healthz", "readyz", "wallet.path", "pass.issue",
                                  "pass.webServiceURL", "wallet.register", "wallet.list", "wallet.fetch", "wallet.notModified",
                                  "wallet.unregister", "wallet.log", "download", "pass.void",
                                  "identity pass.dev.passwright.loyalty", "apns pass.dev.passwright.loyalty"] {
                        #expect(results[check] == "pass", "\(check): \(output)")
                    }
                    #expect(!findings.contains { $0.result == "fail" }, "\(output)")
                    // The test certificate lives two days: inside the renewal window, a warning (which exits 0).
                    let certificate = try #require(findings.first { $0.check == "tls.certificate" }, "\(output)")
                    #expect(certificate.result == "warn" && certificate.detail.contains("EC 256 bits, SHA256; expires"), "\(output)")
                    // The stand-in saw the push doctor made with the loyalty certificate.
                    #expect(try standIn.topics().contains("pass.dev.passwright.loyalty"))
                }
            }
        }
    }

    @Test("plain http is named with its fix, and an expired identity with its renewal; exit 1")
    func httpOnlyAndExpiredIdentity() async throws {
        try await withScratch { scratch in
            try await withServer(in: scratch, nginxPort: 1) { served, _ in
                let identities = try await Self.expiredIdentity(in: scratch)
                let (status, findings, output) = try await doctor([served.baseURL, "--identities", identities.path])
                #expect(status == 1, "\(output)")
                let https = try #require(findings.first { $0.check == "https" }, "\(output)")
                #expect(https.result == "fail")
                #expect(https.fix.contains("TLS reverse proxy"), "\(output)")
                // Over http the health checks still tell what they can.
                #expect(findings.first { $0.check == "healthz" }?.result == "pass", "\(output)")
                let identity = try #require(findings.first { $0.check == "identity \(CertsImportTests.passType)" }, "\(output)")
                #expect(identity.result == "fail", "\(output)")
                #expect(identity.detail.contains("not valid now"), "\(output)")
                #expect(identity.fix.contains("Renew"), "\(output)")
            }
        }
    }

    @Test("TLS 1.0 only is named with the protocols to enable")
    func tls10Only() async throws {
        try await withScratch { scratch in
            let port = try NginxProcess.freePort()
            try await withServer(in: scratch, nginxPort: port) { served, identities in
                let certificate = try Self.goodCertificate(identities, in: scratch)
                try await withNginx(in: scratch, port: port, certificate: certificate,
                                    tls: "ssl_protocols TLSv1; ssl_ciphers ALL:@SECLEVEL=0;", locations: Self.passThrough(served.port)) {
                    let (status, findings, output) = try await doctor(["https://localhost:\(port)", "--ca-file", identities.rootCA.path])
                    #expect(status == 1, "\(output)")
                    let version = try #require(findings.first { $0.check == "tls.version" }, "\(output)")
                    #expect(version.result == "fail", "\(output)")
                    #expect(version.detail.contains("only TLSv1 is offered"), "\(output)")
                    #expect(version.fix.contains("ssl_protocols TLSv1.2 TLSv1.3"), "\(output)")
                }
            }
        }
    }

    @Test("a self-signed certificate is named with the CA to get one from")
    func selfSigned() async throws {
        try await withScratch { scratch in
            let port = try NginxProcess.freePort()
            try await withServer(in: scratch, nginxPort: port) { served, identities in
                let certificate = try TLSServerCertificate.selfSigned(in: scratch)
                try await withNginx(in: scratch, port: port, certificate: certificate, locations: Self.passThrough(served.port)) {
                    let (status, findings, output) = try await doctor(["https://localhost:\(port)", "--ca-file", identities.rootCA.path])
                    #expect(status == 1, "\(output)")
                    let trust = try #require(findings.first { $0.check == "tls.trust" }, "\(output)")
                    #expect(trust.result == "fail", "\(output)")
                    #expect(trust.detail.contains("self-signed") || trust.detail.contains("self signed"), "\(output)")
                    #expect(trust.fix.contains("public CA"), "\(output)")
                    #expect(findings.first { $0.check.hasPrefix("healthz") }?.result == "skipped", "\(output)")
                }
            }
        }
    }

    @Test("a proxy that strips /wallet is named with the location that keeps it")
    func strippedWalletPrefix() async throws {
        try await withScratch { scratch in
            let port = try NginxProcess.freePort()
            try await withServer(in: scratch, nginxPort: port) { served, identities in
                let certificate = try Self.goodCertificate(identities, in: scratch)
                let locations = """
                    location /wallet/ { proxy_pass http://127.0.0.1:\(served.port)/; }
                    \(Self.passThrough(served.port))
                    """
                try await withNginx(in: scratch, port: port, certificate: certificate, locations: locations) {
                    let (status, findings, output) = try await doctor([
                        "https://localhost:\(port)", "--ca-file", identities.rootCA.path, "--record", try Self.record(in: scratch).path,
                    ], token: true)
                    #expect(status == 1, "\(output)")
                    let path = try #require(findings.first { $0.check == "wallet.path" }, "\(output)")
                    #expect(path.result == "fail", "\(output)")
                    #expect(path.detail.contains("404"), "\(output)")
                    #expect(path.fix.contains("proxy_pass http://127.0.0.1:8080; }"), "\(output)")
                    #expect(findings.first { $0.check == "wallet.register" }?.result == "fail", "\(output)")
                    #expect(findings.first { $0.check == "pass.void" }?.result == "pass", "the throwaway pass is voided even so: \(output)")
                }
            }
        }
    }

    /// An identities folder whose one identity expired 35 days ago (with the development WWDR intermediate).
    static func expiredIdentity(in scratch: URL) async throws -> URL {
        let identities = scratch.appendingPathComponent("expired-identities", isDirectory: true)
        let (csr, key) = try await CertsImportTests.request(in: scratch)
        _ = try await CertsImportTests.sign(csr, identities: identities)  // makes the development CA and wwdr/
        let now = Date()
        let expired = try DevCertificates.issue(forRequest: Data(contentsOf: csr), in: identities,
                                                notBefore: now.addingTimeInterval(-400 * 86_400), notAfter: now.addingTimeInterval(-35 * 86_400))
        let folder = identities.appendingPathComponent(CertsImportTests.passType, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try expired.write(to: folder.appendingPathComponent("pass.cer"))
        try FileManager.default.copyItem(at: key, to: folder.appendingPathComponent("private-key.pem"))
        return identities
    }
}
