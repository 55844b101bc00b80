import Foundation

/// The on-disk home of signing identities: one folder per pass type or order type, plus Apple's
/// intermediates.
///
/// ```
/// <root>/<passTypeIdentifier>/certificate.pem + private-key.pem   (or one *.p12)
/// <root>/<orderTypeIdentifier>/…                                  (the same layout)
/// <root>/wwdr/*.pem|*.cer|*.crt                                   (PEM or DER)
/// ```
/// One server serves many pass types, so identities are looked up by pass type identifier.
/// Passphrases come from a closure: the library never reads the environment, the CLI decides.
public struct IdentityDirectory: Sendable {
    /// The folder holding the identity folders and `wwdr/`.
    public let root: URL
    private let passphrase: @Sendable (_ passTypeIdentifier: String) -> String?
    private let passphraseHelp: @Sendable (_ passTypeIdentifier: String) -> String?

    /// The folder name of Apple's WWDR intermediates.
    static let intermediatesFolder = "wwdr"
    static let certificateFile = "certificate.pem"
    static let privateKeyFile = "private-key.pem"

    /// The folder of `passTypeIdentifier`'s identity under `root`, refusing identifiers that cannot
    /// be a folder name or would clash with `wwdr/` or the development CA's folder.
    static func identityFolder(for passTypeIdentifier: String, in root: URL) throws -> URL {
        let folder = root.appendingPathComponent(passTypeIdentifier, isDirectory: true)
        guard !passTypeIdentifier.isEmpty, !passTypeIdentifier.contains("/"), !passTypeIdentifier.hasPrefix("."),
              ![DevCertificates.caFolder, intermediatesFolder].contains(passTypeIdentifier) else {
            throw SigningError.fileAccess(path: folder.path, operation: "create identity folder",
                                          reason: "\"\(passTypeIdentifier)\" cannot be a folder name for a pass type identifier")
        }
        return folder
    }

    /// - Parameter passphrase: returns the passphrase of a pass type's key or `.p12`, or `nil`
    ///   when it is not encrypted.
    /// - Parameter passphraseHelp: where a missing passphrase is set (the CLI names its environment
    ///   variables), for the error about an encrypted key without one.
    public init(root: URL, passphrase: @escaping @Sendable (_ passTypeIdentifier: String) -> String?,
                passphraseHelp: @escaping @Sendable (_ passTypeIdentifier: String) -> String? = { _ in nil }) {
        self.root = root
        self.passphrase = passphrase
        self.passphraseHelp = passphraseHelp
    }

    /// Loads the identity of one pass type, checking that its certificate is for that pass type.
    public func identity(forPassTypeIdentifier passTypeIdentifier: String) throws -> SigningIdentity {
        try identity(for: passTypeIdentifier, kind: .pass)
    }

    /// Loads the identity of one order type (an Order Type ID certificate in the same layout, the
    /// folder named after the order type identifier), checking that its certificate is for it.
    public func identity(forOrderTypeIdentifier orderTypeIdentifier: String) throws -> SigningIdentity {
        try identity(for: orderTypeIdentifier, kind: .order)
    }

    private func identity(for passTypeIdentifier: String, kind: TypeIdentifierKind) throws -> SigningIdentity {
        do {
            return try loadIdentity(passTypeIdentifier, kind: kind)
        } catch SigningError.passphraseRequired(let source) {
            guard let help = passphraseHelp(passTypeIdentifier) else { throw SigningError.passphraseRequired(source: source) }
            throw SigningError.passphraseRequired(source: "\(source) (set \(help))")
        }
    }

    private func loadIdentity(_ passTypeIdentifier: String, kind: TypeIdentifierKind) throws -> SigningIdentity {
        let folder = root.appendingPathComponent(passTypeIdentifier, isDirectory: true)
        let files = try contents(of: folder)
        let names = Set(files.map(\.lastPathComponent))
        let identity: SigningIdentity
        // Apple's download is `pass.cer` (DER); it may sit next to the key instead of certificate.pem.
        let downloaded = files.filter { $0.pathExtension.lowercased() == "cer" }
        if names.contains(Self.certificateFile) || names.contains(Self.privateKeyFile) {
            let certificate: URL
            if names.contains(Self.certificateFile) {
                certificate = folder.appendingPathComponent(Self.certificateFile)
            } else if downloaded.count == 1, names.contains(Self.privateKeyFile) {
                certificate = downloaded[0]
            } else {
                let missing = names.contains(Self.certificateFile) ? Self.privateKeyFile : Self.certificateFile
                throw SigningError.incompleteIdentity(folder: folder.path, missing: "\(missing) (certificate.pem, or Apple's pass.cer, and private-key.pem go together)")
            }
            guard names.contains(Self.privateKeyFile) else {
                throw SigningError.incompleteIdentity(folder: folder.path, missing: "\(Self.privateKeyFile) (certificate.pem and private-key.pem go together)")
            }
            let key = folder.appendingPathComponent(Self.privateKeyFile)
            identity = try SigningIdentity(
                certificatePEMOrDER: FileIO.read(certificate), certificateSource: certificate.path,
                privateKeyPEM: FileIO.read(key), keySource: key.path, passphrase: passphrase(passTypeIdentifier))
        } else {
            let bundles = files.filter { $0.pathExtension.lowercased() == "p12" }
            guard bundles.count == 1, let bundle = bundles.first else {
                let found = bundles.isEmpty ? "" : " (found \(bundles.count) .p12 files: keep one)"
                throw SigningError.incompleteIdentity(folder: folder.path, missing: "certificate.pem + private-key.pem, or one .p12 file\(found)")
            }
            identity = try SigningIdentity(pkcs12: FileIO.read(bundle), password: passphrase(passTypeIdentifier), source: bundle.path)
        }
        guard identity.certificate.typeIdentifier(kind) == passTypeIdentifier else {
            throw SigningError.identityMismatch(folder: folder.path, certificatePassTypeIdentifier: identity.certificate.typeIdentifier(kind))
        }
        return identity
    }

    /// Every certificate in `wwdr/`, for `WWDRSelection` to choose from.
    public func intermediates() throws -> [Certificate] {
        let folder = root.appendingPathComponent(Self.intermediatesFolder, isDirectory: true)
        let files = try contents(of: folder).filter { ["pem", "cer", "crt"].contains($0.pathExtension.lowercased()) }
        guard !files.isEmpty else {
            throw SigningError.incompleteIdentity(folder: folder.path, missing: "Apple WWDR intermediate certificates (*.pem, *.cer, *.crt)")
        }
        return try files.flatMap(Certificate.loadAll(from:))
    }

    /// The pass type identifiers that have an identity folder (one holding a key or a `.p12`) with a
    /// Pass Type ID certificate: what the server signs and pushes with, what `doctor` and the expiry
    /// check look at. Order Type ID identities in the same folder are left out (see
    /// ``orderTypeIdentifiers()``): loading one as a pass type would only fail.
    public func passTypeIdentifiers() throws -> [String] {
        try typeIdentifiers(.pass)
    }

    /// The order type identifiers that have an identity folder with an Order Type ID certificate.
    public func orderTypeIdentifiers() throws -> [String] {
        try typeIdentifiers(.order)
    }

    /// The identity folders whose certificate is of `kind`, by folder name. The kind is read from the
    /// certificate (its common name's prefix, as Apple's portal writes it), so a folder is listed
    /// under exactly one kind whatever it is called. A folder whose certificate cannot be read here
    /// (unlistable, an encrypted `.p12` without its passphrase, a broken file) goes by its name's
    /// Apple prefix, `order.` for orders, else passes, so loading it still says what is wrong.
    public func typeIdentifiers(_ kind: TypeIdentifierKind) throws -> [String] {
        try identityFolders().filter { self.kind(of: $0) == kind }.map(\.lastPathComponent)
    }

    private func kind(of folder: URL) -> TypeIdentifierKind {
        let name = folder.lastPathComponent
        if let certificate = try? certificate(in: folder) {
            if certificate.typeIdentifier(.order) != nil, certificate.typeIdentifier(.pass) == nil { return .order }
            if certificate.typeIdentifier(.pass) != nil, certificate.typeIdentifier(.order) == nil { return .pass }
        }
        return name.hasPrefix("order.") ? .order : .pass
    }

    /// The certificate of an identity folder without its private key: `certificate.pem`, Apple's
    /// single `.cer`, or the `.p12` opened with the folder's passphrase.
    private func certificate(in folder: URL) throws -> Certificate? {
        let files = try contents(of: folder)
        if let pem = files.first(where: { $0.lastPathComponent == Self.certificateFile }) {
            return try Certificate.loadAll(from: pem).first
        }
        let downloaded = files.filter { $0.pathExtension.lowercased() == "cer" }
        if downloaded.count == 1 { return try Certificate.loadAll(from: downloaded[0]).first }
        let bundles = files.filter { $0.pathExtension.lowercased() == "p12" }
        guard bundles.count == 1 else { return nil }
        return try SigningIdentity(pkcs12: FileIO.read(bundles[0]), password: passphrase(folder.lastPathComponent),
                                   source: bundles[0].path).certificate
    }

    /// Private key and `.p12` files that group or others can read; `passwright certs` warns about
    /// them, since anyone reading the key can sign passes and push as this pass type.
    public func looseKeyPermissions() -> [URL] {
        let folders = (try? subfolders()) ?? []
        return folders.flatMap { folder in
            ((try? contents(of: folder)) ?? []).filter { file in
                let name = file.lastPathComponent
                guard name.hasSuffix("key.pem") || file.pathExtension.lowercased() == "p12",
                      let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue else { return false }
                return mode & 0o044 != 0
            }
        }
    }

    private func identityFolders() throws -> [URL] {
        try subfolders().filter { folder in
            // A folder this process may not list may well be an identity (root-owned 0700, made by
            // `certs dev` run as root): keep it, so loading it says "permission denied" and whose it
            // is, rather than the pass type seeming to have no identity at all.
            guard let files = try? contents(of: folder) else {
                return ![DevCertificates.caFolder, Self.intermediatesFolder].contains(folder.lastPathComponent)
            }
            return files.contains { $0.lastPathComponent == Self.privateKeyFile || $0.pathExtension.lowercased() == "p12" }
        }
    }

    private func subfolders() throws -> [URL] {
        try contents(of: root).filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
    }

    private func contents(of folder: URL) throws -> [URL] {
        do {
            return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw SigningError.fileAccess(path: folder.path, operation: "list", reason: FileIO.reason(error, at: folder.path))
        }
    }
}
