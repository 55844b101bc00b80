import Foundation

/// What `Certificate` reads from its DER once at `init`, so every accessor is a plain field read.
struct CertificateFacts: Sendable {
    var subject: String
    var issuer: String
    /// The DER of the subject and issuer names: compared byte for byte when matching an issuer,
    /// which is stricter and cheaper than comparing printed names.
    var subjectNameDER: Data
    var issuerNameDER: Data
    var serialNumberHex: String
    var notBefore: Date
    var notAfter: Date
    var subjectKeyIdentifier: Data?
    var authorityKeyIdentifier: Data?
    var isCertificateAuthority: Bool
    var userID: String?
    var commonName: String?
    var organizationalUnit: String?
}
