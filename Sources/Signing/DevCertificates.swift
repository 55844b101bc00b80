import Foundation

/// A throwaway PKI shaped like Apple's (root → WWDR G4-like intermediate → Pass Type ID
/// certificate) so passes can be built, signed, verified and pushed locally without an Apple account.
///
/// Every subject says NOT FOR PRODUCTION. Wallet on a device will not trust these certificates.
public enum DevCertificates {
    /// The organization named in every development subject.
    public static let organization = "Passwright Development (NOT FOR PRODUCTION)"
    static let caFolder = "dev-ca"
    /// Apple's WWDR common name plus a DEV mark; "(DEV)" in parentheses would pass the 64-character
    /// limit RFC 5280 sets on a common name, which OpenSSL enforces.
    public static let intermediateCommonName = "Apple Worldwide Developer Relations Certification Authority DEV"

    /// Writes a development identity for `passTypeIdentifier` into the `IdentityDirectory` layout
    /// under `root`, creating the root CA and intermediate on first use and reusing them (their
    /// keys are read back) for every further pass type, so one trusted root covers them all.
    ///
    /// Files: `dev-ca/root.pem`, `dev-ca/root-key.pem`, `dev-ca/wwdr-key.pem`, `wwdr/dev-wwdr.pem`,
    /// `<passTypeIdentifier>/certificate.pem`, `<passTypeIdentifier>/private-key.pem`; keys are
    /// written with mode 0600, every file atomically.
    public static func create(in root: URL, passTypeIdentifier: String, teamIdentifier: String, now: Date) throws -> DevIdentityFiles {
        try create(in: root, typeIdentifier: passTypeIdentifier, kind: .pass, teamIdentifier: teamIdentifier, now: now)
    }

    /// Writes a development identity for `typeIdentifier` of `kind` (a Pass Type ID or an Order Type
    /// ID) under `root`, as ``create(in:passTypeIdentifier:teamIdentifier:now:)`` does for passes.
    ///
    /// Apple's portal shapes both certificates alike (UID = the identifier, OU = the team, the same
    /// WWDR G4 issuer); only the common name's prefix differs, `Order Type ID: ` for orders, so both
    /// kinds share one dev root and intermediate.
    public static func create(in root: URL, typeIdentifier: String, kind: TypeIdentifierKind, teamIdentifier: String, now: Date) throws -> DevIdentityFiles {
        let identityFolder = try IdentityDirectory.identityFolder(for: typeIdentifier, in: root)
        let (authority, wwdr) = try authority(in: root, now: now)
        try FileIO.createFolder(identityFolder, permissions: 0o700)
        let files = DevIdentityFiles(
            rootCertificate: authority.rootCertificate, intermediate: authority.intermediate,
            certificate: identityFolder.appendingPathComponent(IdentityDirectory.certificateFile),
            privateKey: identityFolder.appendingPathComponent(IdentityDirectory.privateKeyFile))
        _ = try issue(
            subject: [("UID", typeIdentifier), ("CN", "\(kind.commonNamePrefix)\(typeIdentifier)"),
                      ("OU", teamIdentifier), ("O", organization), ("C", "US")],
            issuer: wwdr, notBefore: now, notAfter: years(1, after: now), extensions: leafExtensions,
            certificate: files.certificate, key: files.privateKey)
        return files
    }

    /// Signs a certificate signing request with the development intermediate under `root` (made
    /// first, with its root, when missing), as Apple's portal would: a Pass Type ID-shaped
    /// certificate for the request's key and subject, valid from `notBefore` to `notAfter`, returned
    /// as DER (the form of the `.cer` Apple's portal downloads).
    ///
    /// Lets the whole request → certificate → import path run locally, and lets tests make expired
    /// certificates by passing dates in the past.
    public static func issue(forRequest csrPEM: Data, in root: URL, notBefore: Date, notAfter: Date) throws -> Data {
        let request = try CertificateRequestObject(pem: csrPEM, source: "certificate signing request")
        let (_, wwdr) = try authority(in: root, now: notBefore)
        let x509 = try CertificateBuilder.issue(
            subject: request.subject() + [("O", organization), ("C", "US")], key: request.publicKey(source: "certificate signing request"),
            issuer: wwdr, notBefore: notBefore, notAfter: notAfter, extensions: leafExtensions)
        return try x509.der()
    }

    /// The development root and intermediate under `root`, read back when present, else made (valid
    /// ten years from `now`): `dev-ca/root.pem` + keys in `dev-ca/`, the intermediate in `wwdr/`.
    private static func authority(in root: URL, now: Date) throws -> (files: (rootCertificate: URL, intermediate: URL), wwdr: SigningIdentity) {
        let caFolder = root.appendingPathComponent(Self.caFolder, isDirectory: true)
        let wwdrFolder = root.appendingPathComponent(IdentityDirectory.intermediatesFolder, isDirectory: true)
        for folder in [caFolder, wwdrFolder] {
            try FileIO.createFolder(folder, permissions: 0o700)
        }
        let rootCertificate = caFolder.appendingPathComponent("root.pem")
        let intermediate = wwdrFolder.appendingPathComponent("dev-wwdr.pem")
        let rootKey = caFolder.appendingPathComponent("root-key.pem")
        let wwdrKey = caFolder.appendingPathComponent("wwdr-key.pem")

        let existingRoot = try load(certificate: rootCertificate, key: rootKey)
        let rootCA = try existingRoot ?? issue(
            subject: [("C", "US"), ("O", organization), ("CN", "Passwright Development Root CA (NOT FOR PRODUCTION)")],
            issuer: nil, notBefore: now, notAfter: years(10, after: now),
            extensions: [("basicConstraints", "critical,CA:TRUE"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always")],
            certificate: rootCertificate, key: rootKey)

        // A new root invalidates any old intermediate, which it did not sign.
        let existingWWDR = existingRoot == nil ? nil : try load(certificate: intermediate, key: wwdrKey)
        let wwdr = try existingWWDR ?? issue(
            subject: [("C", "US"), ("O", organization), ("OU", "G4"), ("CN", intermediateCommonName)],
            issuer: rootCA, notBefore: now, notAfter: years(10, after: now),
            extensions: [("basicConstraints", "critical,CA:TRUE,pathlen:0"), ("keyUsage", "critical,keyCertSign,cRLSign"),
                         ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always")],
            certificate: intermediate, key: wwdrKey)
        return ((rootCertificate, intermediate), wwdr)
    }

    /// Extensions of a Pass Type ID-shaped certificate: an end entity that signs.
    private static let leafExtensions: [CertificateBuilder.Extension] = [
        ("basicConstraints", "critical,CA:FALSE"), ("keyUsage", "critical,digitalSignature"),
        ("extendedKeyUsage", "clientAuth"), ("subjectKeyIdentifier", "hash"), ("authorityKeyIdentifier", "keyid:always"),
    ]

    /// Reads back a certificate and its key when both files exist.
    private static func load(certificate: URL, key: URL) throws -> SigningIdentity? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: certificate.path), manager.fileExists(atPath: key.path) else { return nil }
        return try SigningIdentity(certificatePEM: FileIO.read(certificate), certificateSource: certificate.path,
                                   privateKeyPEM: FileIO.read(key), keySource: key.path, passphrase: nil)
    }

    /// Generates an RSA-2048 key, issues a certificate for it, writes both (certificate 0644, key
    /// 0600) and returns them, ready to issue further certificates.
    private static func issue(subject: [(field: String, value: String)], issuer: SigningIdentity?,
                              notBefore: Date, notAfter: Date, extensions: [CertificateBuilder.Extension],
                              certificate: URL, key: URL) throws -> SigningIdentity {
        let privateKey = try PrivateKeyObject.generateRSA(bits: 2048)
        let x509 = try CertificateBuilder.issue(subject: subject, key: privateKey, issuer: issuer,
                                                notBefore: notBefore, notAfter: notAfter, extensions: extensions)
        let identity = try SigningIdentity(x509: x509, privateKey: privateKey, source: key.path)
        try FileIO.writeAtomically(privateKey.unencryptedPKCS8PEM(), to: key, permissions: 0o600)
        try FileIO.writeAtomically(Data(identity.certificate.pem.utf8), to: certificate, permissions: 0o644)
        return identity
    }

    private static func years(_ count: Int, after date: Date) -> Date {
        date.addingTimeInterval(TimeInterval(count) * 365 * 24 * 3600)
    }
}
