import Foundation
import Signing

/// The hash `manifest.json` lists for each file: the one thing about the manifest that differs
/// between passes and orders, so it is a parameter rather than a second manifest.
///
/// Passes use SHA-1 (Apple's "Building a Pass"); orders use SHA-256 (Apple's "Building a
/// distributable order package").
public enum ManifestHash: String, Sendable, Hashable {
    case sha1 = "SHA-1"
    case sha256 = "SHA-256"

    /// The lowercase hex digest of `data`, as the manifest lists it.
    public func hex(_ data: Data) -> String {
        switch self {
        case .sha1: return Digest.sha1Hex(data)
        case .sha256: return Digest.sha256Hex(data)
        }
    }

    /// How many hex digits a digest has: what a manifest read back must hold.
    public var hexLength: Int {
        switch self {
        case .sha1: return 40
        case .sha256: return 64
        }
    }

    /// The name in messages: `SHA-1`, `SHA-256`.
    public var name: String { rawValue }
}
