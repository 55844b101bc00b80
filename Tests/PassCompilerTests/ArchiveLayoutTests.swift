import Foundation
import PassCompiler
import PassModel
import PasswrightTesting
import Signing
import Testing
import WalletPackage
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
            #expect(archive.names == templateFiles + ["pass.json", "manifest.json", "signature"])
            // The per-pass files are stored; the template's are deflated once, except those that would
            // shrink past the bound (these solid test PNGs are raw pixels in stored zlib blocks) and
            // look like a zip bomb.
            let perPass: Set = ["pass.json", "manifest.json", "signature"]
            for entry in archive.entries {
                let expected: ZipCompression
                if perPass.contains(entry.name) {
                    expected = .store
                } else {
                    var deflating = ZipWriter()
                    try deflating.add(path: entry.name, data: try #require(archive.files[entry.name]), compression: .deflate)
                    let deflated = try #require(try ZipReader(data: deflating.finish(), limits: ZipLimits(maxEntries: 1, maxEntrySize: 1 << 26, maxTotalUncompressedSize: 1 << 26, maxCompressionRatio: .max)).entries.first)
                    expected = deflated.uncompressedSize / deflated.compressedSize > ZipPrecompressedEntries.maxDeflateRatio ? .store : .deflate
                }
                #expect(entry.compression == expected, "\(entry.name) is \(entry.compression)")
            }
            #expect(archive.entries.first { $0.name == "logo@2x.png" }?.compression == .store)
            #expect(archive.entries.first { $0.name == "en.lproj/pass.strings" }?.compression == .deflate)
            #expect(archive.files["pass.json"] == compiled.passJSON)
            // The manifest laid out once per template holds this pass's hashes, in Manifest's canonical form.
            var manifest = Manifest(hash: .sha1)
            for (name, bytes) in archive.files where name != "manifest.json" && name != "signature" {
                manifest.set(Digest.sha1Hex(bytes), for: name)
            }
            #expect(archive.files["manifest.json"] == manifest.encoded())
        }
    }

    /// What a server keeps of a pass is its own bytes: every archive of a compiler begins with the
    /// same template bytes, and the pass's part is the archive after them, a fraction of it.
    @Test func packagedPassesShareTheTemplatesBytes() throws {
        try withTemporaryDirectory { folder in
            let directory = try TestTemplate.write(in: folder)
            try TestPNG.solid(width: 320, height: 100).write(to: directory.appendingPathComponent("logo@2x.png"))
            let compiler = try TestTemplate.compiler(for: Template.load(from: directory))
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            func packaged(_ serial: String) throws -> (PackagedPass, Data) {
                let input = PassInput(record: TestTemplate.baseRecord, recordName: serial, serialNumber: serial, authenticationToken: "fixed-token-0123456789abcdef0123")
                let signed = try compiler.sign(input, at: now)
                return (try compiler.packaged(signed, recordName: serial), try compiler.package(signed, recordName: serial))
            }
            let (first, firstArchive) = try packaged("ONE-1")
            let (second, secondArchive) = try packaged("SECOND-22")
            #expect(first.archive == firstArchive && second.archive == secondArchive)
            #expect(first.shared == second.shared)
            let logo = try #require(try Archive(firstArchive).files["logo@2x.png"])
            #expect(first.shared.count > logo.count, "the template's files are in the shared part")
            #expect(first.own.count < first.shared.count && first.size == first.own.count)
            #expect(try Archive(second.archive).files["pass.json"] != Archive(first.archive).files["pass.json"])
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
