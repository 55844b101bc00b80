import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Testing
import ZipArchive

/// The archive layout Wallet and the manifest expect, and builds that repeat exactly.
@Suite struct ArchiveLayoutTests {
    @Test func entriesAreOrderedAndCompressedByKind() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            try TestPNG.solid(width: 160, height: 50).write(to: directory.appendingPathComponent("logo.png"))
            try TestPNG.solid(width: 320, height: 100).write(to: directory.appendingPathComponent("logo@2x.png"))
            let template = try Template.load(from: directory)
            let compiled = try TestTemplate.compiler(for: template).compile(PassInput(record: TestTemplate.baseRecord, recordName: "r"))
            let archive = try Archive(compiled.archive)
            let templateFiles = ["de.lproj/pass.strings", "en.lproj/pass.strings", "icon.png", "icon@2x.png", "icon@3x.png", "logo.png", "logo@2x.png"]
            #expect(archive.names == ["pass.json"] + templateFiles + ["manifest.json", "signature"])
            for entry in archive.entries {
                let expected: ZipCompression = entry.name.hasSuffix(".png") || entry.name == "signature" ? .store : .deflate
                #expect(entry.compression == expected, "\(entry.name) is \(entry.compression)")
            }
            #expect(archive.files["pass.json"] == compiled.passJSON)
        }
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        try withTemporaryDirectory { folder in
            let compiler = try TestTemplate.compiler(for: TestTemplate.load(in: folder), options: CompileOptions(webServiceURL: "https://passes.example.com/wallet"))
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let input = PassInput(record: TestTemplate.baseRecord, recordName: "r", serialNumber: "SAME-1", authenticationToken: "fixed-token-0123456789abcdef0123")
            let first = try Archive(compiler.compile(input, at: now).archive)
            let second = try Archive(compiler.compile(input, at: now).archive)
            #expect(first.files["pass.json"] == second.files["pass.json"])
            #expect(first.files["manifest.json"] == second.files["manifest.json"])
            #expect(first.names == second.names)
            let third = try Archive(compiler.compile(PassInput(record: TestTemplate.baseRecord, recordName: "r", serialNumber: "OTHER-2",
                                                               authenticationToken: "fixed-token-0123456789abcdef0123"), at: now).archive)
            #expect(third.files["manifest.json"] != first.files["manifest.json"])
        }
    }
}
