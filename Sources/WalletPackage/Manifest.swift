import Foundation

/// `manifest.json`: every file of the pass mapped to the lowercase hex SHA-1 of its exact bytes.
///
/// Built from hashes, not files, so that template assets are hashed once when the template loads and
/// only the per-pass files are hashed per pass. Keys are sorted so the bytes are deterministic.
public struct Manifest: Sendable, Hashable {
    /// Path inside the archive → lowercase hex SHA-1.
    public private(set) var hashes: [String: String]

    /// Creates a manifest from path → hash pairs.
    public init(hashes: [String: String] = [:]) {
        self.hashes = hashes
    }

    /// Adds or replaces the hash of one file.
    public mutating func set(_ sha1Hex: String, for path: String) {
        hashes[path] = sha1Hex
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

    /// Parses a manifest read back from an archive.
    public init(bytes: Data) throws(PassCompilerError) {
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
            throw .invalidArchive(entry: "manifest.json", message: "is not a JSON object")
        }
        var hashes: [String: String] = [:]
        for (path, value) in object {
            guard let hash = value as? String, hash.count == 40, hash.allSatisfy(\.isHexDigit) else {
                throw .invalidArchive(entry: "manifest.json", message: "the value for \"\(path)\" is not a 40-digit hex SHA-1")
            }
            hashes[path] = hash.lowercased()
        }
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
