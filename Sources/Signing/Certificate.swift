import Foundation

/// An X.509 certificate: a Pass Type ID signer, an Apple WWDR intermediate or a root.
///
/// A value type holding the DER bytes plus the facts read from them once at `init`, so it can be
/// passed between tasks, stored in sets and asked for its facts without touching OpenSSL again.
/// Two certificates are equal when their DER bytes are.
public struct Certificate: Sendable, Hashable {
    /// The certificate exactly as encoded (DER); what goes into a CMS signature.
    public let derBytes: Data
    let facts: CertificateFacts

    /// Reads a DER-encoded certificate (a `.cer` file's content).
    public init(der: Data) throws {
        try self.init(x509: X509Object(der: der, source: "DER certificate"))
    }

    /// Reads the first certificate of a PEM document.
    public init(pem: Data) throws {
        try self.init(x509: X509Object.allFromPEM(pem, source: "PEM certificate")[0])
    }

    init(x509: X509Object) throws {
        derBytes = try x509.der()
        facts = try x509.facts()
    }

    /// Reads every certificate in a file: a PEM bundle of one or more certificates, or one DER
    /// certificate (Apple's `.cer` downloads are DER).
    public static func loadAll(from file: URL) throws -> [Certificate] {
        let contents = try FileIO.read(file)
        if contents.range(of: Data("-----BEGIN".utf8)) != nil {
            return try X509Object.allFromPEM(contents, source: file.path).map(Certificate.init(x509:))
        }
        return [try Certificate(x509: X509Object(der: contents, source: file.path))]
    }

    /// The certificate as a PEM block, for writing files other tools read.
    public var pem: String {
        let base64 = derBytes.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    /// The subject as one line, most specific attribute first (RFC 2253), for messages and logs.
    public var subject: String { facts.subject }
    /// The issuer as one line (RFC 2253), to name the intermediate a signer needs.
    public var issuer: String { facts.issuer }
    /// The serial number in uppercase hex, as `openssl x509 -serial` prints it.
    public var serialNumberHex: String { facts.serialNumberHex }
    /// Start of validity; a certificate is refused before it.
    public var notBefore: Date { facts.notBefore }
    /// End of validity; Wallet refuses new passes signed by an expired certificate.
    public var notAfter: Date { facts.notAfter }
    /// Subject Key Identifier: matched against a signer's AKI to pick the right WWDR generation.
    public var subjectKeyIdentifier: Data? { facts.subjectKeyIdentifier }
    /// Authority Key Identifier: names the key of the issuing intermediate.
    public var authorityKeyIdentifier: Data? { facts.authorityKeyIdentifier }
    /// Whether basicConstraints says CA:TRUE (intermediates and roots, never a signer).
    public var isCertificateAuthority: Bool { facts.isCertificateAuthority }

    /// SHA-256 of the DER as uppercase colon-separated hex, the form Apple and `openssl x509
    /// -fingerprint -sha256` print, so a user can compare it with a published fingerprint.
    public var sha256Fingerprint: String {
        Digest.sha256(derBytes).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The pass type identifier a Pass Type ID certificate is for: the subject UID, or the CN after
    /// `Pass Type ID: `. Wallet rejects passes whose `passTypeIdentifier` differs from it.
    public var passTypeIdentifier: String? { typeIdentifier(.pass) }

    /// The order type identifier an Order Type ID certificate is for: the subject UID, or the CN after
    /// `Order Type ID: `. Wallet rejects orders whose `orderTypeIdentifier` differs from it (Apple's
    /// "Order": it "must correspond with your signing certificate").
    public var orderTypeIdentifier: String? { typeIdentifier(.order) }

    /// The identifier of `kind` the certificate is for: the subject UID, or the CN after the kind's
    /// prefix; `nil` when the CN names the other kind, so a pass certificate never signs an order.
    public func typeIdentifier(_ kind: TypeIdentifierKind) -> String? {
        let name = facts.commonName ?? ""
        if TypeIdentifierKind.allCases.contains(where: { $0 != kind && name.hasPrefix($0.commonNamePrefix) }) { return nil }
        if let uid = facts.userID, !uid.isEmpty { return uid }
        guard name.hasPrefix(kind.commonNamePrefix) else { return nil }
        return String(name.dropFirst(kind.commonNamePrefix.count))
    }

    /// The Apple team identifier (subject OU); Wallet rejects passes whose `teamIdentifier` differs.
    public var teamIdentifier: String? { facts.organizationalUnit }

    /// How long before expiry lint, `certs import`, the server's start-up log and `/readyz` warn:
    /// renewing takes a new CSR, Apple's portal and a deploy, and once the certificate has expired
    /// Wallet refuses every new pass signed with it.
    public static let renewalWindow: TimeInterval = 30 * 86_400

    /// Whether the certificate expires within ``renewalWindow`` of `date` (or already has).
    public func needsRenewal(at date: Date) -> Bool {
        notAfter.timeIntervalSince(date) < Self.renewalWindow
    }

    /// Whether `date` lies within the validity period (both ends inclusive).
    public func isValid(at date: Date) -> Bool {
        notBefore <= date && date <= notAfter
    }

    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.derBytes == rhs.derBytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(derBytes)
    }
}
