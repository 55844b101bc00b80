import Foundation

/// `manifest.json`: every file of a Wallet document mapped to the lowercase hex digest of its exact
/// bytes (SHA-1 for passes, SHA-256 for orders: ``ManifestHash``).
///
/// Built from hashes, not files, so that template assets are hashed once when the template loads and
/// only the per-document files are hashed per document. Keys are sorted so the bytes are deterministic.
public struct Manifest: Sendable, Hashable {
    /// The hash every value is.
    public let hash: ManifestHash
    /// Path inside the archive → lowercase hex digest.
    public private(set) var hashes: [String: String]

    /// Creates a manifest from path → hash pairs.
    public init(hash: ManifestHash, hashes: [String: String] = [:]) {
        self.hash = hash
        self.hashes = hashes
    }

    /// Adds or replaces the hash of one file.
    public mutating func set(_ hexDigest: String, for path: String) {
        hashes[path] = hexDigest
    }

    /// Hashes `data` with this manifest's hash and lists it for `path`.
    public mutating func add(_ data: Data, for path: String) {
        hashes[path] = hash.hex(data)
    }

    /// The JSON bytes that get signed: `{"icon.png":"…","pass.json":"…"}`, sorted keys, no whitespace.
    public func encoded() -> Data {
        Data(text(around: nil).before.utf8)
    }

    /// The encoding split where the hash of `slot` goes, which is left out: the text before it
    /// and the text after it. `slot` need not be in `hashes` yet; it is placed in sorted order.
    func encoded(around slot: String) -> (before: Data, after: Data) {
        let (before, after) = text(around: slot)
        return (Data(before.utf8), Data(after.utf8))
    }

    private func text(around slot: String?) -> (before: String, after: String) {
        var paths = Set(hashes.keys)
        if let slot { paths.insert(slot) }
        var text = "{"
        var before: String?
        for (index, path) in paths.sorted().enumerated() {
            if index > 0 { text += "," }
            text += "\"\(Self.escape(path))\":\""
            if path == slot {
                before = text
                text = ""
            } else {
                text += hashes[path]!
            }
            text += "\""
        }
        text += "}"
        return before.map { ($0, text) } ?? (text, "")
    }

    /// Parses a manifest read back from an archive, whose values must be `hash` digests.
    public init(bytes: Data, hash: ManifestHash) throws(WalletPackageError) {
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
            throw .invalidArchive(entry: "manifest.json", message: "is not a JSON object")
        }
        var hashes: [String: String] = [:]
        for (path, value) in object {
            guard let digest = value as? String, digest.count == hash.hexLength, digest.allSatisfy(\.isHexDigit) else {
                throw .invalidArchive(entry: "manifest.json", message: "the value for \"\(path)\" is not a \(hash.hexLength)-digit hex \(hash.name)")
            }
            hashes[path] = digest.lowercased()
        }
        self.hash = hash
        self.hashes = hashes
    }

    private static func escape(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
