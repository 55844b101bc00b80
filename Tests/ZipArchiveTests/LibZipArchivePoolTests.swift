import Foundation
import Testing
@testable import ZipArchive

/// The precompressed entries' archives are opened once and lent out: one caller at a time per
/// archive, reused after, dropped after a failure, and every copy taken from them is the same.
@Suite struct LibZipArchivePoolTests {
    // Archives are compared by identity while a reference keeps each alive, so a freed one's address
    // cannot come back for a new one and pass for it.

    @Test func anArchiveIsReusedAndNeverLentToTwoCallersAtOnce() throws {
        let pool = LibZipArchivePool(try ZipWriterTests.sampleArchive())
        let first = try pool.withArchive { $0 }
        #expect(try pool.withArchive { $0 } === first, "an idle archive is lent again, not opened anew")
        let (outer, inner) = try pool.withArchive { (outer) throws(ZipError) in
            (outer, try pool.withArchive { $0 })
        }
        #expect(outer !== inner, "a second caller while the first still holds one gets its own")
        #expect(try pool.withArchive { $0.entryCount } == ZipWriterTests.sample.count)
    }

    @Test func anArchiveABodyFailedWithIsNotLentAgain() throws {
        let pool = LibZipArchivePool(try ZipWriterTests.sampleArchive())
        var failed: LibZipArchive?
        #expect(throws: ZipError.emptyArchive) {
            try pool.withArchive { (archive) throws(ZipError) -> Void in
                failed = archive
                throw .emptyArchive
            }
        }
        #expect(failed != nil)
        #expect(try pool.withArchive { $0 } !== failed)
    }

    /// Many archives built at once from one set of precompressed entries come out byte for byte the
    /// same as one built alone: no two builds shared a `zip_t`.
    @Test func passesBuiltInParallelFromSharedEntriesAreIdentical() async throws {
        let precompressed = try ZipPrecompressedEntries(Array(ZipWriterTests.sample.dropFirst()))
        let build: @Sendable (Int) throws -> Data = { _ in
            var writer = ZipWriter()
            try writer.add(path: "pass.json", data: ZipWriterTests.sample[0].data, compression: .store)
            try writer.add(precompressed)
            return try writer.finish()
        }
        let alone = try build(0)
        let built = try await withThrowingTaskGroup(of: Data.self) { group in
            for index in 0..<64 { group.addTask { try build(index) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(built.count == 64)
        #expect(built.allSatisfy { $0 == alone })
        #expect(try ZipReader(data: alone).entries.count == ZipWriterTests.sample.count)
    }
}
