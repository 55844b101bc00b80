import Foundation
import ZipArchive

/// The files of a Wallet document besides its payload (images, strings files, a pass's
/// `personalization.json`), hashed, laid out in the manifest and compressed once.
///
/// A template's files go into every pass built from it, so preparing them once keeps hashing and
/// zlib off the per-pass path; an order's images are prepared the same way, used once.
public struct DocumentFiles: Sendable {
    /// The kind of document the hashes are for.
    public let kind: WalletDocumentKind
    /// The files' paths inside the archive, in archive order.
    public var paths: [String] { entries.names }
    let layout: ManifestLayout
    let entries: ZipPrecompressedEntries

    /// Files already hashed with `kind`'s manifest hash and compressed (a template's, which keeps
    /// them for every pass).
    public init(kind: WalletDocumentKind, hashes: [(path: String, hexDigest: String)], compressed: ZipPrecompressedEntries) {
        self.kind = kind
        layout = ManifestLayout(kind: kind, hashes: hashes)
        entries = compressed
    }

    /// Hashes `files` with `kind`'s manifest hash and deflates them (stored when deflating would
    /// shrink them suspiciously far; see `ZipPrecompressedEntries`), in path order.
    public init(kind: WalletDocumentKind, files: [(path: String, bytes: Data)]) throws(WalletPackageError) {
        let sorted = files.sorted { $0.path < $1.path }
        let compressed: ZipPrecompressedEntries
        do {
            compressed = try ZipPrecompressedEntries(sorted.map { ($0.path, $0.bytes, .deflate) })
        } catch {
            throw .archive(error)
        }
        self.init(kind: kind, hashes: sorted.map { ($0.path, kind.manifestHash.hex($0.bytes)) }, compressed: compressed)
    }
}
