import Foundation

/// A signed Wallet document as written: the archive and the manifest its signature covers.
public struct SignedDocument: Sendable {
    /// The exact `manifest.json` bytes the signature covers.
    public let manifest: Data
    /// The archive (`.pkpass`, `.order`).
    public let archive: Data
}
