import Foundation
import Signing
import ZipArchive

/// Signs and packages Wallet documents of one kind with one identity: payload → manifest (the
/// kind's hash) → detached CMS signature with the signer and its WWDR intermediate → zip.
///
/// The one recipe for passes and orders (Apple's "Building a Pass" and "Building a distributable
/// order package" differ only in the facts ``WalletDocumentKind`` holds). Prepared once, it is safe
/// to use from many tasks at once.
public struct WalletDocumentSigner: Sendable {
    /// The kind of document this signer packages.
    public let kind: WalletDocumentKind
    private let signer: PassSigner

    /// Prepares a signer for `identity`, embedding `intermediate` (the WWDR certificate that issued
    /// it; see `WWDRSelection`) in every signature, as Wallet needs the chain inside the archive.
    public init(kind: WalletDocumentKind, identity: SigningIdentity, intermediate: Certificate) throws(WalletPackageError) {
        self.kind = kind
        do {
            signer = try PassSigner(identity: identity, intermediate: intermediate)
        } catch {
            throw .signing("\(error)")
        }
    }

    /// A detached CMS signature over `data`, the recipe of the manifest's (SHA-256, signing time).
    public func sign(_ data: Data, at now: Date) throws(WalletPackageError) -> Data {
        do {
            return try signer.sign(data, signingTime: now)
        } catch {
            throw .signing("\(error)")
        }
    }

    /// The archive of one document: `files` (as compressed beforehand), then the payload,
    /// `manifest.json` and `signature` (stored), in that order.
    ///
    /// The payload is stored, not deflated: a few KB, and deflating it took 7 % of a batch pass's
    /// time (zlib sets up some 380 KB of state per entry) to save 1 KB.
    public func package(payload: Data, files: DocumentFiles, at now: Date) throws(WalletPackageError) -> SignedDocument {
        let parts = try signParts(payload: payload, files: files, at: now)
        return SignedDocument(manifest: parts.manifest, archive: try assemble(parts, files: files))
    }

    /// What is signed for one document: its payload, the manifest over it and `files`, and the
    /// signature. A few KB, where the archive carries every file: what a cache keeps per document.
    public func signParts(payload: Data, files: DocumentFiles, at now: Date) throws(WalletPackageError) -> SignedParts {
        precondition(files.kind == kind, "files hashed for \(files.kind.payloadFile) packaged as \(kind.payloadFile)")
        let manifest = files.layout.encoded(payloadHash: kind.manifestHash.hex(payload))
        return SignedParts(payload: payload, manifest: manifest, signature: try sign(manifest, at: now))
    }

    /// The archive of signed `parts` with the `files` they were signed over: copies, no signature.
    ///
    /// The shared files come first, so every archive with the same `files` begins with the same bytes
    /// and only what follows is the document's own: a server keeps just that part of each pass
    /// (`PackagedPass`). Wallet reads entries by name, in any order.
    public func assemble(_ parts: SignedParts, files: DocumentFiles) throws(WalletPackageError) -> Data {
        let archive: Data
        do {
            var writer = ZipWriter()
            try writer.add(files.entries)
            try writer.add(path: kind.payloadFile, data: parts.payload, compression: .store)
            try writer.add(path: "manifest.json", data: parts.manifest, compression: .store)
            try writer.add(path: "signature", data: parts.signature, compression: .store)
            archive = try writer.finish()
        } catch {
            throw .archive(error)
        }
        if let limit = kind.maximumArchiveSize, archive.count >= limit {
            throw .tooLarge(size: archive.count, limit: limit)
        }
        return archive
    }
}
