import Foundation

/// A fresh RSA-2048 private key and the certificate signing request (CSR) for it, what Apple's
/// developer portal asks for when it creates a Pass Type ID certificate.
///
/// Apple's "Create a pass type identifier certificate" flow takes a PEM CSR for an RSA 2048-bit key;
/// the certificate it returns names the pass type and team itself, so the requested subject only
/// helps a person tell requests apart.
public struct CertificateRequest: Sendable {
    /// The CSR to upload (`-----BEGIN CERTIFICATE REQUEST-----`).
    public let csrPEM: Data
    /// The private key, PKCS#8 PEM, encrypted with AES-256-CBC when a passphrase was given.
    public let privateKeyPEM: Data
    /// The key size in bits.
    public let keyBits: Int

    /// Apple's portal asks for RSA 2048-bit keys for Pass Type ID and Order Type ID certificates.
    public static let keyBits: Int32 = 2048

    /// Makes a new key and a CSR for `passTypeIdentifier` (an order type identifier when `kind` is
    /// `.order`) and `teamIdentifier`; the subject names the kind as Apple's certificates do.
    ///
    /// - Parameter passphrase: encrypts the key file; `nil` leaves it plain (keep it mode 0600).
    public init(passTypeIdentifier: String, kind: TypeIdentifierKind = .pass, teamIdentifier: String, passphrase: String?) throws {
        let key = try PrivateKeyObject.generateRSA(bits: Self.keyBits)
        let subject = [("UID", passTypeIdentifier), ("CN", kind.commonNamePrefix + passTypeIdentifier), ("OU", teamIdentifier)]
        csrPEM = try CertificateRequestObject(subject: subject.map { (field: $0.0, value: $0.1) }, key: key).pem()
        privateKeyPEM = try key.pem(passphrase: passphrase)
        keyBits = key.bits
    }

    /// Writes the CSR (mode 0644) and the key (mode 0600) atomically, creating their folder.
    ///
    /// An existing key is never replaced: once its CSR is uploaded, the certificate Apple returns
    /// only works with that key, and a lost key means a new certificate.
    public func write(csr: URL, privateKey: URL) throws {
        for file in [csr, privateKey] where FileManager.default.fileExists(atPath: file.path) {
            throw SigningError.fileAccess(path: file.path, operation: "write", reason:
                "it exists already; move it away first (a key whose CSR was uploaded is the only key its certificate works with)")
        }
        try FileIO.createFolder(privateKey.deletingLastPathComponent(), permissions: 0o700)
        try FileIO.createFolder(csr.deletingLastPathComponent(), permissions: 0o700)
        try FileIO.writeAtomically(privateKeyPEM, to: privateKey, permissions: 0o600)
        try FileIO.writeAtomically(csrPEM, to: csr, permissions: 0o644)
    }
}
