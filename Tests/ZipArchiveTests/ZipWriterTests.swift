import Foundation
import PasswrightTesting
import Testing
@testable import ZipArchive

@Suite struct ZipWriterTests {
    /// A pass-shaped archive: stored PNG stand-ins and deflated JSON and strings.
    static let sample: [(path: String, data: Data, compression: ZipCompression)] = [
        ("pass.json", Data(#"{"formatVersion": 1, "description": "Sample pass", "organizationName": "Passwright"}"#.utf8), .deflate),
        ("icon.png", .incompressible(count: 4_000, seed: 1), .store),
        ("icon@2x.png", .incompressible(count: 9_000, seed: 2), .store),
        ("strip@3x.png", .incompressible(count: 40_000, seed: 3), .store),
        ("en.lproj/pass.strings", Data(String(repeating: "\"Points\" = \"Points\";\n", count: 40).utf8), .deflate),
        ("de.lproj/pass.strings", Data(), .deflate),
    ]

    static func sampleArchive(modificationDate: Date = ZipWriter.defaultModificationDate) throws -> Data {
        var writer = ZipWriter(modificationDate: modificationDate)
        for entry in sample { try writer.add(path: entry.path, data: entry.data, compression: entry.compression) }
        return try writer.finish()
    }

    @Test func roundTripKeepsBytesOrderAndMethods() throws {
        let reader = try ZipReader(data: Self.sampleArchive())
        #expect(reader.entries.map(\.name) == Self.sample.map(\.path))
        for (entry, expected) in zip(reader.entries, Self.sample) {
            #expect(entry.compression == expected.compression)
            #expect(entry.uncompressedSize == expected.data.count)
            #expect(!entry.isDirectory)
            #expect(try reader.data(for: entry.name) == expected.data)
            #expect(reader.contains(entry.name))
        }
        let strings = try #require(reader.entries.first { $0.name == "en.lproj/pass.strings" })
        #expect(strings.compressedSize < strings.uncompressedSize / 4)
        let png = try #require(reader.entries.first { $0.name == "strip@3x.png" })
        #expect(png.compressedSize == png.uncompressedSize)
    }

    /// Entries compressed once are copied as they are: same bytes, same methods, same compressed
    /// sizes, in order among normal entries; and the result is the archive writing them all anew gives.
    @Test func precompressedEntriesAreCopiedUnchanged() throws {
        let shared = Array(Self.sample.dropFirst())
        let precompressed = try ZipPrecompressedEntries(shared)
        var writer = ZipWriter()
        try writer.add(path: "pass.json", data: Self.sample[0].data, compression: .deflate)
        try writer.add(precompressed)
        try writer.add(path: "signature", data: Data([1, 2, 3]), compression: .store)
        let reader = try ZipReader(data: writer.finish())
        #expect(reader.entries.map(\.name) == ["pass.json"] + shared.map(\.path) + ["signature"])
        let fresh = try ZipReader(data: Self.sampleArchive())
        for expected in shared {
            let entry = try #require(reader.entries.first { $0.name == expected.path })
            let freshEntry = try #require(fresh.entries.first { $0.name == expected.path })
            #expect(entry.compression == expected.compression)
            #expect(entry.compressedSize == freshEntry.compressedSize)
            #expect(try reader.data(for: entry.name) == expected.data)
        }
        var duplicate = ZipWriter()
        try duplicate.add(path: "icon.png", data: Data([0]), compression: .store)
        #expect(throws: ZipError.duplicateEntry(name: "icon.png")) { try duplicate.add(precompressed) }
        var fileAfter = ZipWriter()
        try fileAfter.add(precompressed)
        #expect(throws: ZipError.duplicateEntry(name: "icon.png")) {
            try fileAfter.add(path: "icon.png", data: Data([0]), compression: .store)
        }
        #expect(throws: ZipError.duplicateEntry(name: shared[0].path)) { try fileAfter.add(precompressed) }
    }

    /// An archive that begins with precompressed entries starts from their own archive and only
    /// writes what follows: the bytes are exactly those of writing every entry anew, and a second
    /// archive from the same entries is unaffected by the first (each starts from its own copy).
    @Test func anArchiveBeginningWithPrecompressedEntriesIsTheSameArchive() throws {
        let shared = Array(Self.sample.dropFirst())
        let precompressed = try ZipPrecompressedEntries(shared)
        func archive(_ signature: [UInt8]) throws -> Data {
            var writer = ZipWriter()
            try writer.add(precompressed)
            try writer.add(path: "pass.json", data: Self.sample[0].data, compression: .store)
            try writer.add(path: "signature", data: Data(signature), compression: .store)
            return try writer.finish()
        }
        func fresh(_ signature: [UInt8]) throws -> Data {
            var writer = ZipWriter()
            for entry in shared { try writer.add(path: entry.path, data: entry.data, compression: entry.compression) }
            try writer.add(path: "pass.json", data: Self.sample[0].data, compression: .store)
            try writer.add(path: "signature", data: Data(signature), compression: .store)
            return try writer.finish()
        }
        let first = try archive([1, 2, 3])
        #expect(first == (try fresh([1, 2, 3])))
        #expect(try archive([4, 5, 6, 7]) == (try fresh([4, 5, 6, 7])))
        #expect(try archive([1, 2, 3]) == first)
        #expect(try ZipReader(data: first).data(for: "signature") == Data([1, 2, 3]))
    }

    /// Deflate asked for is kept for files that hardly shrink (real PNGs), so copies need no CRC pass;
    /// a file that would shrink past the bound is stored, and any reader's ratio limit still takes it.
    @Test func precompressedEntriesPastTheRatioBoundAreStored() throws {
        let image = Data.incompressible(count: 30_000, seed: 4)
        let solid = Data(count: 200_000)
        let precompressed = try ZipPrecompressedEntries([("strip.png", image, .deflate), ("solid.png", solid, .deflate)])
        var writer = ZipWriter()
        try writer.add(precompressed)
        let reader = try ZipReader(data: writer.finish(), limits: .untrusted)
        let copied = try #require(reader.entries.first { $0.name == "strip.png" })
        #expect(copied.compression == .deflate)
        let stored = try #require(reader.entries.first { $0.name == "solid.png" })
        #expect(stored.compression == .store)
        #expect(stored.compressedSize == solid.count)
        #expect(try reader.data(for: "solid.png") == solid)
        #expect(try reader.data(for: "strip.png") == image)
        var deflated = ZipWriter()
        try deflated.add(path: "solid.png", data: solid, compression: .deflate)
        let bomb = try deflated.finish()
        #expect(throws: ZipError.self, "deflated, the same file reads as a zip bomb") { try ZipReader(data: bomb, limits: .untrusted) }
    }

    @Test func sameInputsGiveSameBytes() throws {
        let first = try Self.sampleArchive()
        #expect(try Self.sampleArchive() == first)
        let later = Date(timeIntervalSince1970: 1_781_515_800) // 2026-06-15 09:30:00 UTC
        #expect(try Self.sampleArchive(modificationDate: later) != first)
        #expect(try Self.sampleArchive(modificationDate: later) == Self.sampleArchive(modificationDate: later))
    }

    @Test func modificationDateIsWrittenInUTC() throws {
        let later = Date(timeIntervalSince1970: 1_781_515_800) // 2026-06-15 09:30:00 UTC
        let times = try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("dated.zip")
            try Self.sampleArchive(modificationDate: later).write(to: file)
            return try Subprocess.toolBlocking("python3", ["-c", """
                import sys, zipfile
                print(sorted({i.date_time for i in zipfile.ZipFile(sys.argv[1]).infolist()}))
                """, file.path]).text
        }
        #expect(times == "[(2026, 6, 15, 9, 30, 0)]\n")
    }

    @Test func unzipToolsReadWhatIsWritten() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("sample.pkpass")
            try Self.sampleArchive().write(to: file)

            let listing = try Subprocess.toolBlocking("unzip", ["-l", file.path])
            #expect(listing.status == 0)
            for entry in Self.sample { #expect(listing.text.contains(entry.path)) }

            let test = try Subprocess.toolBlocking("unzip", ["-t", file.path])
            #expect(test.status == 0)
            #expect(test.text.contains("No errors detected"))

            for entry in Self.sample {
                #expect(try Subprocess.toolBlocking("unzip", ["-p", file.path, entry.path]).stdout == entry.data)
            }

            let info = try Subprocess.toolBlocking("zipinfo", [file.path]).text.split(separator: "\n")
            for entry in Self.sample {
                let line = try #require(info.first { $0.hasSuffix(" " + entry.path) })
                #expect(line.contains(entry.compression == .store ? " stor " : " defN "), "\(line)")
                #expect(line.hasPrefix("-rw-r--r--"))
            }
        }
    }

    @Test(arguments: ["", "/pass.json", "../evil.png", "en.lproj/../../evil", "en.lproj\\pass.strings",
                      "en.lproj//pass.strings", "en.lproj/", "./pass.json", "pass\0.json"])
    func rejectsUnsafeNames(_ name: String) throws {
        var writer = ZipWriter()
        #expect {
            try writer.add(path: name, data: Data("x".utf8), compression: .store)
        } throws: { error in
            guard case .invalidEntryName(let rejected, _) = error as? ZipError else { return false }
            return rejected == name
        }
    }

    @Test func rejectsDuplicates() throws {
        var writer = ZipWriter()
        try writer.add(path: "icon.png", data: Data([1]), compression: .store)
        #expect(throws: ZipError.duplicateEntry(name: "icon.png")) {
            try writer.add(path: "icon.png", data: Data([2]), compression: .deflate)
        }
        #expect(try ZipReader(data: writer.finish()).data(for: "icon.png") == Data([1]))
    }

    @Test func emptyArchiveIsAnError() {
        #expect(throws: ZipError.emptyArchive) { try ZipWriter().finish() }
    }

    @Test func errorsNameTheEntry() {
        let error = ZipError.invalidEntryName(name: "../evil", reason: "it has a '..' component")
        #expect(error.description.contains("\"../evil\""))
        #expect(ZipError.invalidEntryName(name: "a\0b", reason: "NUL").description.contains(#""a\0b""#))
    }
}

@Suite struct DOSTimestampTests {
    /// (seconds since 1970, DOS date, DOS time): DOS date = (year - 1980) << 9 | month << 5 | day,
    /// DOS time = hour << 11 | minute << 5 | second / 2.
    static let cases: [(Double, UInt16, UInt16)] = [
        (951_827_696, 10_333, 25_692),   // 2000-02-29 12:34:56
        (1_781_515_800, 23_759, 19_392), // 2026-06-15 09:30:00
        (0, 33, 0),                      // 1970: before ZIP time, clamped to 1980-01-01 00:00
        (-1, 33, 0),                     // 1969-12-31 23:59:59
        (7_258_118_400, 65_439, 49_021), // 2200: after ZIP time, clamped to 2107-12-31 23:59:58
    ]

    @Test(arguments: cases)
    func convertsUTCAndClamps(seconds: Double, date: UInt16, time: UInt16) {
        let stamp = DOSTimestamp(Date(timeIntervalSince1970: seconds))
        #expect(stamp.date == date)
        #expect(stamp.time == time)
    }
}
