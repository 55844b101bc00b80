import Foundation
import PasswrightTesting

/// A throwaway PKI made with the real `openssl` CLI in a private temp folder: a CA, a server certificate
/// for 127.0.0.1 from it, a Pass-Type-ID-like client certificate from it (key plain and encrypted), and
/// an unrelated second CA. Passwords go through the environment, never the command line (see `OpenSSL`).
struct TestPKI {
    /// The pass type identifier the client certificate is made for.
    static let passTypeIdentifier = "pass.dev.passwright.apns-tests"
    /// The client certificate's subject as the stand-in reports it (certificate order, short names).
    static let clientSubject = "UID=\(passTypeIdentifier),CN=Pass Type ID: \(passTypeIdentifier),OU=PWTEST1234,O=Passwright Tests,C=US"

    let directory: URL
    var caFile: URL { directory.appendingPathComponent("ca.pem") }
    var otherCAFile: URL { directory.appendingPathComponent("other-ca.pem") }
    var serverCertificate: URL { directory.appendingPathComponent("server.pem") }
    var serverKey: URL { directory.appendingPathComponent("server.key") }
    let clientCertificatePEM: Data
    let clientKeyPEM: Data
    let clientEncryptedKeyPEM: Data
    let clientKeyPassword: String

    /// Makes every file; the caller removes `directory` (see `withStandIn`).
    static func make() throws -> TestPKI {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let password = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()

        try makeCA(named: "ca", subject: "/CN=Passwright APNs Test CA", in: directory)
        try makeCA(named: "other-ca", subject: "/CN=Some Other CA", in: directory)

        _ = try TLSServerCertificate.issue(by: directory.appendingPathComponent("ca.pem"), caKey: directory.appendingPathComponent("ca.key"), in: directory)

        // RSA like a real Pass Type ID certificate, with the subject layout Apple uses.
        try OpenSSL.require(["req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", path("client.key"),
                     "-out", path("client.csr"),
                     "-subj", "/UID=\(passTypeIdentifier)/CN=Pass Type ID: \(passTypeIdentifier)/OU=PWTEST1234/O=Passwright Tests/C=US"])
        try "extendedKeyUsage=clientAuth\n".write(toFile: path("client.ext"), atomically: true, encoding: .utf8)
        try OpenSSL.require(["x509", "-req", "-in", path("client.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                     "-CAcreateserial", "-days", "2", "-extfile", path("client.ext"), "-out", path("client.pem")])
        try OpenSSL.require(["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", path("client.key"), "-out", path("client-encrypted.key"),
                     "-passout", "env:APNS_TEST_KEY_PASSWORD"], environment: ["APNS_TEST_KEY_PASSWORD": password])
        for key in ["ca.key", "other-ca.key", "server.key", "client.key", "client-encrypted.key"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path(key))
        }
        return TestPKI(
            directory: directory,
            clientCertificatePEM: try Data(contentsOf: URL(fileURLWithPath: path("client.pem"))),
            clientKeyPEM: try Data(contentsOf: URL(fileURLWithPath: path("client.key"))),
            clientEncryptedKeyPEM: try Data(contentsOf: URL(fileURLWithPath: path("client-encrypted.key"))),
            clientKeyPassword: password
        )
    }

    private static func makeCA(named name: String, subject: String, in directory: URL) throws {
        try OpenSSL.require(["req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", directory.appendingPathComponent("\(name).key").path,
                     "-out", directory.appendingPathComponent("\(name).pem").path,
                     "-subj", subject, "-days", "2"])
    }

}
