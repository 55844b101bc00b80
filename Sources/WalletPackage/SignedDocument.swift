import Foundation

/// A signed Wallet document as written: the archive and the manifest its signature covers.
public struct SignedDocument: Sendable {
    /// The exact `manifest.json` bytes the signature covers.
    public let manifest: Data
    /// The archive (`.pkpass`, `.order`).
    public let archive: Data
}

/// The signed parts of one document, without the files every document of its template shares:
/// ``WalletDocumentSigner/assemble(_:files:)`` makes the archive from them again without signing.
public struct SignedParts: Sendable, Hashable {
    /// The payload (`pass.json`, `order.json`) exactly as signed.
    public let payload: Data
    /// The exact `manifest.json` bytes the signature covers.
    public let manifest: Data
    /// The detached CMS signature.
    public let signature: Data

    public init(payload: Data, manifest: Data, signature: Data) {
        (self.payload, self.manifest, self.signature) = (payload, manifest, signature)
    }

    /// The bytes they hold.
    public var size: Int { payload.count + manifest.count + signature.count }
}
