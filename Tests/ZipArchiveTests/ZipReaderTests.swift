import Foundation
import PasswrightTesting
import Testing
@testable import ZipArchive

@Suite struct ZipReaderTests {
    /// Matches any error of the given case, whatever its payload.
    static func isError(_ error: any Error, _ matches: (ZipError) -> Bool) -> Bool {
        (error as? ZipError).map(matches) ?? false
    }

    @Test func tooManyEntriesIsRefusedBeforeReading() throws {
        let archive = try Subprocess.pythonArchive("""
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                for i in range(300): z.writestr(f'f{i}.txt', b'x')
            """)
        #expect(throws: ZipError.tooManyEntries(count: 300, limit: 256)) { try ZipReader(data: archive) }
        let generous = ZipLimits(maxEntries: 300, maxEntrySize: 10, maxTotalUncompressedSize: 1_000, maxCompressionRatio: 100)
        #expect(try ZipReader(data: archive, limits: generous).entries.count == 300)
    }

    @Test func zipBombOfZerosIsRefusedFromItsDeclaredSize() throws {
        let archive = try Subprocess.pythonArchive("""
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('bomb.bin', bytes(100 * 1024 * 1024))
            """)
        #expect(archive.count < 200_000)
        #expect(throws: ZipError.entryTooLarge(name: "bomb.bin", size: 100 * 1024 * 1024, limit: 20 * 1024 * 1024)) {
            try ZipReader(data: archive)
        }
    }

    @Test func highCompressionRatioIsRefused() throws {
        let archive = try Subprocess.pythonArchive("""
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('zeros.bin', bytes(5 * 1024 * 1024))
            """)
        #expect { try ZipReader(data: archive) } throws: { error in
            Self.isError(error) { if case .compressionRatioTooHigh("zeros.bin", let ratio, 100) = $0 { ratio > 100 } else { false } }
        }
    }

    @Test func totalUncompressedSizeIsBounded() throws {
        var writer = ZipWriter()
        for name in ["a.png", "b.png", "c.png"] {
            try writer.add(path: name, data: .incompressible(count: 400), compression: .store)
        }
        let limits = ZipLimits(maxEntries: 10, maxEntrySize: 500, maxTotalUncompressedSize: 1_000, maxCompressionRatio: 100)
        #expect(throws: ZipError.archiveTooLarge(size: 1_200, limit: 1_000)) {
            try ZipReader(data: writer.finish(), limits: limits)
        }
    }

    /// One deflated entry whose declared uncompressed size (in both headers) is `declared`.
    static func archiveDeclaring(_ declared: Int, actual: Int) throws -> Data {
        try Subprocess.pythonArchive("""
            import random, struct
            random.seed(7)
            text = ''.join(random.choice('abcdefgh ') for _ in range(\(actual))).encode()
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('pass.json', text)
            data = bytearray(open(sys.argv[1], 'rb').read())
            struct.pack_into('<I', data, 22, \(declared))
            struct.pack_into('<I', data, data.index(b'PK\\x01\\x02') + 24, \(declared))
            open(sys.argv[1], 'wb').write(data)
            """)
    }

    @Test func lyingSmallSizeStopsInflatingAtTheDeclaredSize() throws {
        let reader = try ZipReader(data: Self.archiveDeclaring(1_000, actual: 200_000))
        #expect(reader.entries.first?.uncompressedSize == 1_000)
        #expect(throws: ZipError.sizeMismatch(name: "pass.json", declared: 1_000, reason: "inflates to more")) {
            try reader.data(for: "pass.json")
        }
    }

    @Test func lyingLargeSizeIsAnError() throws {
        let reader = try ZipReader(data: Self.archiveDeclaring(20_000, actual: 10_000))
        #expect { try reader.data(for: "pass.json") } throws: { error in
            Self.isError(error) {
                switch $0 {
                case .sizeMismatch("pass.json", 20_000, _), .libzip(_, "pass.json", _): true
                default: false
                }
            }
        }
    }

    @Test(arguments: ["../evil.png", "en.lproj/../../evil", "/etc/passwd", "en.lproj\\\\pass.strings"])
    func hostileNamesAreRefusedByName(_ pythonName: String) throws {
        let archive = try Subprocess.pythonArchive("""
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr('icon.png', b'png')
                z.writestr('\(pythonName)', b'gotcha')
            """)
        let name = pythonName.replacingOccurrences(of: "\\\\", with: "\\")
        #expect { try ZipReader(data: archive) } throws: { error in
            Self.isError(error) { if case .invalidEntryName(name, _) = $0 { true } else { false } }
                && "\(error)".contains("\"\(name)\"")
        }
    }

    @Test func nulInANameIsRefusedThoughLibzipHidesIt() throws {
        var writer = ZipWriter()
        try writer.add(path: "evilXpng", data: Data("gotcha".utf8), compression: .store)
        let forged = try writer.finish().replacingAll(Data("evilXpng".utf8), with: Data("evil\0png".utf8))
        #expect(throws: ZipError.invalidEntryName(name: "evil\0png", reason: "it contains a NUL character")) {
            try ZipReader(data: forged)
        }
    }

    @Test func otherCompressionMethodsAreRefused() throws {
        let archive = try Subprocess.pythonArchive("""
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_BZIP2) as z:
                z.writestr('pass.json', b'{}')
            """)
        #expect(throws: ZipError.unsupportedEntry(name: "pass.json", reason: "compression method 12")) {
            try ZipReader(data: archive)
        }
    }

    @Test func directoryEntriesAreListedAndEmpty() throws {
        let archive = try Subprocess.pythonArchive("""
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr('en.lproj/', b'')
                z.writestr('en.lproj/pass.strings', b'"a" = "b";')
            """)
        let reader = try ZipReader(data: archive)
        #expect(reader.entries.map(\.isDirectory) == [true, false])
        #expect(try reader.data(for: "en.lproj/") == Data())
        #expect(try reader.data(for: "en.lproj/pass.strings") == Data(#""a" = "b";"#.utf8))
    }

    @Test func damagedInputFailsCleanly() throws {
        let good = try ZipWriterTests.sampleArchive()
        for damaged in [good.prefix(good.count / 2), good.suffix(good.count / 2), .incompressible(count: 1_000), Data()] {
            #expect { try ZipReader(data: Data(damaged)) } throws: { error in
                Self.isError(error) { if case .libzip("opening the archive", nil, let message) = $0 { !message.isEmpty } else { false } }
            }
        }
    }

    @Test func corruptedBytesFailTheCRCCheck() throws {
        var writer = ZipWriter()
        try writer.add(path: "strip.png", data: Data(repeating: 0x41, count: 64), compression: .store)
        let corrupted = try writer.finish().replacingAll(Data(repeating: 0x41, count: 64),
                                                         with: Data(repeating: 0x42, count: 64))
        let reader = try ZipReader(data: corrupted)
        #expect { try reader.data(for: "strip.png") } throws: { error in
            Self.isError(error) { if case .libzip(_, "strip.png", let message) = $0 { message.contains("CRC") } else { false } }
        }
    }

    @Test func unknownNamesAreReported() throws {
        let reader = try ZipReader(data: ZipWriterTests.sampleArchive())
        #expect(!reader.contains("logo.png"))
        #expect(throws: ZipError.entryNotFound(name: "logo.png")) { try reader.data(for: "logo.png") }
    }

    @Test func oneReaderServesConcurrentReads() async throws {
        let reader = try ZipReader(data: ZipWriterTests.sampleArchive())
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for _ in 0..<50 {
                        for entry in ZipWriterTests.sample where (try? reader.data(for: entry.path)) != entry.data { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
