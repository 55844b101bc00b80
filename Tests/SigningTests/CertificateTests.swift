import Foundation
import PasswrightTesting
import Testing
import Signing

@Suite struct CertificateTests {
    @Test func passCertificateFacts() throws {
        try withTemporaryDirectory { folder in
            let now = Date(timeIntervalSince1970: 1_790_000_000)
            let pki = try DevPKI(in: folder, now: now)
            #expect(pki.leaf.passTypeIdentifier == DevPKI.passType)
            #expect(pki.leaf.teamIdentifier == DevPKI.team)
            #expect(pki.leaf.notBefore == now)
            #expect(pki.leaf.notAfter == now.addingTimeInterval(365 * 86400))
            #expect(pki.leaf.isValid(at: now.addingTimeInterval(86400)))
            #expect(!pki.leaf.isValid(at: now.addingTimeInterval(-1)))
            #expect(!pki.leaf.isValid(at: now.addingTimeInterval(366 * 86400)))
            #expect(pki.intermediate.passTypeIdentifier == nil)
            #expect(pki.leaf.issuer == pki.intermediate.subject)
        }
    }

    @Test func factsMatchTheOpenSSLCommand() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            let shown = try OpenSSL.run(["x509", "-in", pki.files.certificate.path, "-noout", "-serial",
                                                "-fingerprint", "-sha256", "-subject", "-issuer", "-nameopt", "RFC2253"])
            #expect(shown.succeeded, "\(shown.error)")
            #expect(shown.output.contains("serial=\(pki.leaf.serialNumberHex)\n"))
            #expect(shown.output.contains("sha256 Fingerprint=\(pki.leaf.sha256Fingerprint)\n"))
            #expect(shown.output.contains("subject=\(pki.leaf.subject)\n"))
            #expect(shown.output.contains("issuer=\(pki.leaf.issuer)\n"))
        }
    }

    @Test func pemRoundTripsAndDERLoads() throws {
        try withTemporaryDirectory { folder in
            let pki = try DevPKI(in: folder)
            #expect(try Certificate(pem: Data(pki.leaf.pem.utf8)) == pki.leaf)
            #expect(try Certificate(der: pki.leaf.derBytes) == pki.leaf)
            let bundle = folder.appendingPathComponent("bundle.pem")
            try Data((pki.leaf.pem + pki.intermediate.pem).utf8).write(to: bundle)
            #expect(try Certificate.loadAll(from: bundle) == [pki.leaf, pki.intermediate])
            #expect(throws: SigningError.self) { try Certificate(der: Data([0x30, 0x03, 0x02, 0x01, 0x01])) }
        }
    }

    @Test func passTypeFromCommonNameWhenThereIsNoUID() throws {
        try withTemporaryDirectory { folder in
            let key = folder.appendingPathComponent("key.pem")
            let made = try OpenSSL.run(["req", "-x509", "-newkey", "rsa:2048", "-noenc", "-keyout", key.path, "-days", "1",
                                               "-subj", "/CN=Pass Type ID: pass.example.cn/OU=ABCDE12345/O=Example",
                                               "-out", folder.appendingPathComponent("c.pem").path])
            #expect(made.succeeded, "\(made.error)")
            let certificate = try Certificate.loadAll(from: folder.appendingPathComponent("c.pem"))[0]
            #expect(certificate.passTypeIdentifier == "pass.example.cn")
            #expect(certificate.teamIdentifier == "ABCDE12345")
        }
    }
}
