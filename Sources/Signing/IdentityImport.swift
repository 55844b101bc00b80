import Foundation

/// Turns what Apple's portal or Keychain hands out — a DER `.cer`, a PEM file, or a `.p12` export
/// (including the legacy RC2/3DES encryption) — into the identity folder the server signs with.
///
/// Each check that Wallet would otherwise make on a phone, weeks later, is made here with a message
/// saying what to do: that the certificate is a Pass Type ID one, that it is valid now, that the key
/// belongs to it, and that a WWDR intermediate issued it (Apple's "Worldwide Developer Relations"
/// certificates, https://www.apple.com/certificateauthority/).
public struct IdentityImport: Sendable {
    /// The certificate (`.cer`, `.pem`, `.crt`) or bundle (`.p12`, `.pfx`) to import.
    public var file: URL
    /// The private key when it is not inside `file`; when `nil`, `<passTypeIdentifier>.key.pem`
    /// (what `certs request` writes) is looked for in `keySearchFolders`.
    public var key: URL?
    /// Folders to look for `<passTypeIdentifier>.key.pem` in; `file`'s own folder is always first.
    public var keySearchFolders: [URL] = []
    /// Extra WWDR intermediates (e.g. `AppleWWDRCAG4.cer` as downloaded); the matching one is copied to `wwdr/`.
    public var intermediates: [URL] = []
    /// The identities folder to write into (`<identities>/<passTypeIdentifier>/`, `<identities>/wwdr/`).
    public var identities: URL
    /// The passphrase of a key (given its pass type) or of a `.p12` (given `nil`, since the pass type
    /// is unknown until it is open); the written key is encrypted with it too.
    public var passphrase: @Sendable (_ passTypeIdentifier: String?) -> String?
    /// The moment validity is checked at.
    public var now: Date

    /// Describes an import; nothing is read until ``run()``.
    public init(file: URL, identities: URL, now: Date, passphrase: @escaping @Sendable (_ passTypeIdentifier: String?) -> String?) {
        self.file = file
        self.identities = identities
        self.now = now
        self.passphrase = passphrase
    }

    /// Checks everything, then writes `certificate.pem` (0644) and `private-key.pem` (0600) and, if
    /// new, the intermediate into `wwdr/`; finally loads the folder as the server would.
    public func run() throws -> ImportedIdentity {
        let (identity, bundled, keyPassphrase) = try loadIdentity()
        let certificate = identity.certificate
        guard let (passType, kind) = Self.typeIdentifier(of: certificate) else { throw notPassType(certificate) }
        let intermediate = try chooseIntermediate(for: certificate, bundled: bundled)

        let folder = try IdentityDirectory.identityFolder(for: passType, in: identities)
        try FileIO.createFolder(folder, permissions: 0o700)
        var addedIntermediate: URL?
        if !((try? directory.intermediates()) ?? []).contains(intermediate) {
            let wwdr = identities.appendingPathComponent(IdentityDirectory.intermediatesFolder, isDirectory: true)
            try FileIO.createFolder(wwdr, permissions: 0o755)
            let name = "wwdr-" + intermediate.sha256Fingerprint.replacingOccurrences(of: ":", with: "").prefix(16).lowercased() + ".pem"
            let file = wwdr.appendingPathComponent(name)
            try FileIO.writeAtomically(Data(intermediate.pem.utf8), to: file, permissions: 0o644)
            addedIntermediate = file
        }
        try FileIO.writeAtomically(identity.privateKey.pem(passphrase: keyPassphrase),
                                   to: folder.appendingPathComponent(IdentityDirectory.privateKeyFile), permissions: 0o600)
        try FileIO.writeAtomically(Data(certificate.pem.utf8), to: folder.appendingPathComponent(IdentityDirectory.certificateFile), permissions: 0o644)
        let written = IdentityDirectory(root: identities) { _ in keyPassphrase }
        _ = kind == .order ? try written.identity(forOrderTypeIdentifier: passType) : try written.identity(forPassTypeIdentifier: passType)

        var warnings: [String] = []
        if certificate.needsRenewal(at: now) {
            warnings.append("the certificate for \(passType) expires on \(certificate.notAfter.formatted(.iso8601)): "
                + "make a new request with 'passwright certs request' and renew it in Apple's developer portal before then")
        }
        return ImportedIdentity(certificate: certificate, intermediate: intermediate, folder: folder, keyEncrypted: keyPassphrase != nil,
                                addedIntermediate: addedIntermediate, warnings: warnings)
    }

    private var directory: IdentityDirectory {
        IdentityDirectory(root: identities) { _ in nil }
    }

    /// The signer with its key, the CA certificates that came with it, and the passphrase used.
    private func loadIdentity() throws -> (SigningIdentity, [Certificate], String?) {
        let contents = try FileIO.read(file)
        if ["p12", "pfx"].contains(file.pathExtension.lowercased()) {
            let password = passphrase(nil)
            let identity = try SigningIdentity(pkcs12: contents, password: password, source: file.path)
            try checkKind(identity.certificate)
            return (identity, [], password.flatMap { $0.isEmpty ? nil : $0 })
        }
        let isPEM = contents.range(of: Data("-----BEGIN".utf8)) != nil
        let objects = isPEM ? try X509Object.allFromPEM(contents, source: file.path) : [try X509Object(der: contents, source: file.path)]
        let certificates = try objects.map(Certificate.init(x509:))
        guard let index = certificates.firstIndex(where: { !$0.isCertificateAuthority }) else {
            throw SigningError.importRefused(source: file.path, problem: "it holds only CA certificates (\(certificates.map(\.subject).joined(separator: " | ")))",
                                             remedy: "Import the Pass Type ID certificate itself; pass a WWDR intermediate with --wwdr")
        }
        let certificate = certificates[index]
        try checkKind(certificate)
        let passType = Self.typeIdentifier(of: certificate)!.identifier
        let (keyPEM, keySource) = try privateKey(inline: isPEM ? contents : nil, passType: passType)
        let keyPassphrase = passphrase(passType)
        let key = try PrivateKeyObject(pem: keyPEM, passphrase: keyPassphrase, source: keySource)
        do {
            let identity = try SigningIdentity(x509: objects[index], privateKey: key, source: keySource)
            return (identity, certificates.filter(\.isCertificateAuthority), keyPassphrase.flatMap { $0.isEmpty ? nil : $0 })
        } catch SigningError.keyDoesNotMatchCertificate {
            throw SigningError.importRefused(
                source: file.path, problem: "the certificate is not for the private key \(keySource) (their public keys differ)",
                remedy: "Pass --key with the key 'passwright certs request' wrote beside the CSR this certificate was made from; if that key is lost, make a new request and a new certificate")
        }
    }

    /// The key's PEM and where it came from: `key`, else a key in the same PEM file, else `<pass type>.key.pem`.
    private func privateKey(inline: Data?, passType: String) throws -> (Data, String) {
        if let key { return (try FileIO.read(key), key.path) }
        if let inline, inline.range(of: Data("PRIVATE KEY-----".utf8)) != nil { return (inline, file.path) }
        let folders = [file.deletingLastPathComponent()] + keySearchFolders
        let candidates = folders.map { $0.appendingPathComponent("\(passType).key.pem") }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw SigningError.importRefused(
                source: file.path, problem: "no private key found for it (looked for \(candidates.map(\.path).joined(separator: ", ")))",
                remedy: "Pass --key with the key 'passwright certs request' wrote, or import the .p12 that Keychain exports with the key")
        }
        return (try FileIO.read(found), found.path)
    }

    /// The Pass Type ID (`pass.…`) or Order Type ID (`order.…`) a certificate is for, with its kind;
    /// `nil` for any other certificate.
    static func typeIdentifier(of certificate: Certificate) -> (identifier: String, kind: TypeIdentifierKind)? {
        guard !certificate.isCertificateAuthority else { return nil }
        for kind in TypeIdentifierKind.allCases {
            if let identifier = certificate.typeIdentifier(kind), identifier.hasPrefix("\(kind.rawValue).") { return (identifier, kind) }
        }
        return nil
    }

    /// Refuses certificates that are not Pass Type ID or Order Type ID ones (push, development,
    /// distribution, CA) and ones not valid now, before any key is asked for.
    private func checkKind(_ certificate: Certificate) throws {
        guard let (passType, _) = Self.typeIdentifier(of: certificate) else {
            throw notPassType(certificate)
        }
        if now > certificate.notAfter {
            throw SigningError.importRefused(
                source: file.path, problem: "the certificate for \(passType) expired on \(certificate.notAfter.formatted(.iso8601)); Wallet refuses passes signed with it",
                remedy: "Make a new request with 'passwright certs request', create a new certificate for \(passType) in Apple's developer portal, and import that")
        }
        if now < certificate.notBefore {
            throw SigningError.importRefused(
                source: file.path, problem: "the certificate for \(passType) is not valid before \(certificate.notBefore.formatted(.iso8601))",
                remedy: "Check this machine's clock, or import again once it is valid")
        }
    }

    private func notPassType(_ certificate: Certificate) -> SigningError {
        .importRefused(
            source: file.path, problem: "this is not a Pass Type ID or Order Type ID certificate (subject \(certificate.subject))",
            remedy: "In Apple's developer portal, open Certificates, Identifiers & Profiles → Identifiers → your pass type ID (pass.…), create its certificate from the CSR of 'passwright certs request', and import the .cer it downloads")
    }

    /// The WWDR intermediate that issued `certificate`, from `wwdr/`, `intermediates` and the file itself.
    private func chooseIntermediate(for certificate: Certificate, bundled: [Certificate]) throws -> Certificate {
        let candidates = ((try? directory.intermediates()) ?? []) + (try intermediates.flatMap(Certificate.loadAll(from:))) + bundled
        do {
            return try WWDRSelection.intermediate(for: certificate, among: candidates, at: now)
        } catch SigningError.noMatchingIntermediate(let issuer, _) {
            let folder = identities.appendingPathComponent(IdentityDirectory.intermediatesFolder).path
            throw SigningError.importRefused(
                source: file.path, problem: "no WWDR intermediate in \(folder) or given with --wwdr issued it (its issuer: \(issuer))",
                remedy: "Download the intermediate its issuer names from https://www.apple.com/certificateauthority/ (for certificates issued since 2022: Worldwide Developer Relations - G4, AppleWWDRCAG4.cer) and import again with --wwdr FILE")
        }
    }
}
