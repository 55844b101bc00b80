import Foundation
import PassModel
import PasswrightTesting
import Testing
import ZipArchive

/// A `.pkpass` read back with `ZipReader`: entries in archive order and their bytes.
struct Archive {
    let entries: [ZipEntry]
    let files: [String: Data]

    init(_ data: Data) throws {
        let reader = try ZipReader(data: data)
        entries = reader.entries
        var files: [String: Data] = [:]
        for entry in entries where !entry.isDirectory { files[entry.name] = try reader.data(for: entry.name) }
        self.files = files
    }

    var names: [String] { entries.map(\.name) }

    /// `pass.json` parsed as a JSON tree.
    func passJSON() throws -> JSONValue {
        try JSONValue.parse(#require(files["pass.json"]))
    }

    /// Writes every entry under `folder` (creating `.lproj` folders), as `unzip` would.
    func extract(to folder: URL) throws {
        for (name, bytes) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try bytes.write(to: url)
        }
    }

    /// The same entries in the same order, with `change` applied, written again with `ZipWriter`.
    func rebuilt(_ change: (inout [(name: String, data: Data)]) -> Void) throws -> Data {
        var list = entries.map { (name: $0.name, data: files[$0.name]!) }
        change(&list)
        var writer = ZipWriter()
        for item in list { try writer.add(path: item.name, data: item.data, compression: .store) }
        return try writer.finish()
    }
}

/// The independent checks every built pass must survive: the real `openssl smime -verify` over the
/// extracted `signature` and `manifest.json`, every manifest hash recomputed, and the manifest listing
/// exactly the archive's files.
func expectVerifiesIndependently(_ archiveBytes: Data, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let archive = try Archive(archiveBytes)
    let extracted = folder.appendingPathComponent("extracted-\(UUID().uuidString)", isDirectory: true)
    try archive.extract(to: extracted)
    let identities = try ThrowawayPKI.shared()
    let verify = try OpenSSL.run([
        "smime", "-verify", "-binary", "-inform", "DER",
        "-in", extracted.appendingPathComponent("signature").path,
        "-content", extracted.appendingPathComponent("manifest.json").path,
        "-CAfile", identities.rootCA.path, "-purpose", "any", "-out", "/dev/null",
    ])
    #expect(verify.succeeded, "openssl smime -verify failed: \(verify.error)", sourceLocation: sourceLocation)
    #expect(verify.error.contains("Verification successful"), sourceLocation: sourceLocation)

    let manifestBytes = try #require(archive.files["manifest.json"], sourceLocation: sourceLocation)
    let manifest = try #require(JSONSerialization.jsonObject(with: manifestBytes) as? [String: String], sourceLocation: sourceLocation)
    let listed = Set(archive.files.keys).subtracting(["manifest.json", "signature"])
    #expect(Set(manifest.keys) == listed, sourceLocation: sourceLocation)
    // Recomputed by openssl, not by the library under test: `<hex> *<path>` per file.
    let names = manifest.keys.sorted()
    let digests = try OpenSSL.run(["dgst", "-sha1", "-r"] + names.map { extracted.appendingPathComponent($0).path })
    try #require(digests.succeeded, "openssl dgst failed: \(digests.error)", sourceLocation: sourceLocation)
    let lines = digests.output.split(separator: "\n")
    #expect(lines.count == names.count, sourceLocation: sourceLocation)
    for (name, line) in zip(names, lines) {
        #expect(line.hasPrefix(manifest[name]! + " "), "SHA-1 of \(name) differs from the manifest: \(line)", sourceLocation: sourceLocation)
    }
}
