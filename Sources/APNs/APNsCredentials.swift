import Foundation

/// The TLS client identity APNs authenticates a pass type by: the Pass Type ID certificate and its
/// private key, the same pair that signs the passes (Apple's APNs documentation).
///
/// Both are PEM bytes held in memory and handed to libcurl as blobs, so the key is never written to a
/// file or put on a command line. Redacted when printed.
public struct APNsCredentials: Sendable, CustomStringConvertible {
    /// The certificate in PEM, optionally followed by intermediates.
    public var certificatePEM: Data
    /// The private key in PEM (PKCS#8 or traditional, encrypted or not).
    public var privateKeyPEM: Data
    /// The password of an encrypted private key; `nil` for a plain key.
    public var privateKeyPassword: String?

    /// Wraps a certificate and key already read into memory (e.g. by the identity loader).
    public init(certificatePEM: Data, privateKeyPEM: Data, privateKeyPassword: String? = nil) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.privateKeyPassword = privateKeyPassword
    }

    /// Never shows the key or password, so credentials can sit in logged values safely.
    public var description: String {
        "APNsCredentials(certificate: \(certificatePEM.count) bytes, key: redacted\(privateKeyPassword == nil ? "" : ", password: redacted"))"
    }
}
