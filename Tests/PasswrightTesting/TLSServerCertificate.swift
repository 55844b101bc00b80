import Foundation

/// A TLS server certificate for 127.0.0.1 and `localhost`, issued by a test CA with the real `openssl`
/// CLI: what a local stand-in (the APNs one) presents, so the client under test verifies a real chain.
public struct TLSServerCertificate: Sendable {
    /// `server.pem`.
    public let certificate: URL
    /// `server.key`, mode 0600.
    public let key: URL

    /// Issues a certificate (P-256 key, two days, SAN `IP:127.0.0.1,DNS:localhost`, server auth only)
    /// signed by `caCertificate` and `caKey`, writing `server.pem` and `server.key` into `folder`.
    public static func issue(by caCertificate: URL, caKey: URL, in folder: URL) throws -> TLSServerCertificate {
        let key = folder.appendingPathComponent("server.key")
        let request = folder.appendingPathComponent("server.csr")
        let certificate = folder.appendingPathComponent("server.pem")
        let extensions = folder.appendingPathComponent("server.ext")
        // The key file exists with mode 0600 before openssl writes into it.
        guard FileManager.default.createFile(atPath: key.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw FixtureError("cannot create \(key.path)")
        }
        try Data("""
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1,DNS:localhost

            """.utf8).write(to: extensions)
        try OpenSSL.require([
            "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", key.path, "-subj", "/CN=localhost/O=Passwright test server", "-out", request.path,
        ])
        // A random serial, so certificates issued by one CA in one run never share one.
        let serial = "0x" + (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try OpenSSL.require([
            "x509", "-req", "-in", request.path, "-CA", caCertificate.path, "-CAkey", caKey.path, "-set_serial", serial,
            "-days", "2", "-sha256", "-extfile", extensions.path, "-out", certificate.path,
        ])
        return TLSServerCertificate(certificate: certificate, key: key)
    }

    /// A self-signed certificate for the same names, as a server set up in a hurry presents: nothing
    /// but itself vouches for it.
    public static func selfSigned(in folder: URL) throws -> TLSServerCertificate {
        let key = folder.appendingPathComponent("self-signed.key")
        let certificate = folder.appendingPathComponent("self-signed.pem")
        guard FileManager.default.createFile(atPath: key.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw FixtureError("cannot create \(key.path)")
        }
        try OpenSSL.require([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-sha256",
            "-keyout", key.path, "-out", certificate.path, "-subj", "/CN=localhost/O=Passwright self-signed",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        return TLSServerCertificate(certificate: certificate, key: key)
    }
}
