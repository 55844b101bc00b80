import Foundation
import PassCompiler
import PasswrightTesting
import ZipArchive

/// Template folders as the zip archives an upload carries, made the way a user's archiver would.
enum TemplateZip {
    /// The sample template `name` as an archive, with `pass.json` edited by `edit` (text in, text out).
    static func sample(_ name: String = "loyalty", editingPassJSON edit: (String) -> String = { $0 }) throws -> Data {
        let folder = try TemplateSourceFile.read(folder: Samples.templatesFolder.appendingPathComponent(name))
        var writer = ZipWriter()
        for file in folder.kept {
            var bytes = file.bytes
            if file.path == "pass.json" { bytes = Data(edit(String(decoding: bytes, as: UTF8.self)).utf8) }
            try writer.add(path: file.path, data: bytes, compression: .deflate)
        }
        return try writer.finish()
    }

    /// The sample with every `slot` image left out and `masterName` (e.g. `logo.master.svg`) added.
    static func sample(_ name: String = "loyalty", replacing slot: String, with masterName: String, master: Data) throws -> Data {
        let folder = try TemplateSourceFile.read(folder: Samples.templatesFolder.appendingPathComponent(name))
        var writer = ZipWriter()
        for file in folder.kept where ImageNameSlot.of(file.path) != slot {
            try writer.add(path: file.path, data: file.bytes, compression: .deflate)
        }
        try writer.add(path: masterName, data: master, compression: .deflate)
        return try writer.finish()
    }

    /// An archive no well-behaved archiver makes, written by Python's `zipfile` (which writes any
    /// name and mode it is given): `kind` is `traversal`, `symlink`, `bomb` or `entries`.
    static func hostile(_ kind: String) async throws -> Data {
        try await withScratch { folder in
            let output = folder.appendingPathComponent("hostile.zip")
            let script = """
            import sys, zipfile
            kind, path, passjson = sys.argv[1], sys.argv[2], open(sys.argv[3], 'rb').read()
            with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('pass.json', passjson)
                if kind == 'traversal':
                    z.writestr('../../etc/evil.png', b'x')
                elif kind == 'symlink':
                    info = zipfile.ZipInfo('icon.png')
                    info.create_system = 3
                    info.external_attr = (0o120777 << 16)
                    z.writestr(info, '/etc/passwd')
                elif kind == 'bomb':
                    z.writestr('strip.png', b'\\0' * (60 << 20))
                elif kind == 'entries':
                    for i in range(3000):
                        z.writestr('en.lproj/f%d.txt' % i, b'x')
            """
            let passJSON = Samples.templatesFolder.appendingPathComponent("loyalty/pass.json")
            let result = try await Subprocess.tool("python3", ["-c", script, kind, output.path, passJSON.path])
            guard result.status == 0 else { throw FixtureError("python3 could not write the \(kind) archive: \(String(decoding: result.stderr, as: UTF8.self))") }
            return try Data(contentsOf: output)
        }
    }
}

extension TestService {
    /// `PUT /api/v1/templates/{name}` with an archive.
    func upload(_ name: String, _ archive: Data, contentType: String = "application/zip") async throws -> RawResponse {
        try await client.send(
            "PUT", "/api/v1/templates/\(name)", headers: [("Authorization", "Bearer \(adminToken)"), ("Content-Type", contentType)],
            body: archive)
    }
}

/// The slot of a root image file name (`logo@2x.png` → `logo`).
enum ImageNameSlot {
    static func of(_ path: String) -> String? {
        guard !path.contains("/"), path.hasSuffix(".png") else { return nil }
        return String(path.dropLast(4).split(separator: "@").first ?? "")
    }
}
