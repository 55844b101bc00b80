import Foundation

/// Files compressed once and then copied, still compressed, into many archives.
///
/// A template's images and `pass.strings` are the same in every pass built from it; compressing
/// them (and computing their CRCs) once when the template loads, instead of once per pass, takes
/// zlib off the hot path of batch builds.
public struct ZipPrecompressedEntries: Sendable {
    /// The highest ratio of uncompressed to deflated size an entry is deflated at; one that would
    /// shrink more is stored instead, so that no reader bounding the ratio (this module's
    /// ``ZipLimits/untrusted`` at 100:1) takes a real file, such as an uncompressed PNG, for a zip bomb.
    public static let maxDeflateRatio = 50

    /// Entry names, in archive order.
    public let names: [String]
    /// The same names, for an archive's duplicate check: hashed once here rather than in every
    /// archive the entries are copied into.
    let nameSet: Set<String>
    /// Each entry's method as it ended up, in archive order: copying needs it, and reading it back
    /// from the central directory for every pass costs more than the copy.
    let methods: [ZipCompression]
    /// The entries as one archive, opened once per parallel user rather than once per pass.
    private let opened: LibZipArchivePool
    /// That archive's bytes: an archive that begins with these entries starts as a copy of them.
    var archive: Data { opened.bytes }

    /// Compresses `files` now, each as asked, except that a `.deflate` file shrinking more than
    /// ``maxDeflateRatio`` is stored.
    ///
    /// Deflate is the method to ask for even for PNGs, which hardly shrink: libzip copies deflated
    /// entries byte for byte, while it checks the CRC of a stored entry each time it copies it (twice:
    /// reading and writing), which was 4 % of a batch pass's time for the loyalty sample's 66 KB of images.
    public init(_ files: [(path: String, data: Data, compression: ZipCompression)]) throws(ZipError) {
        var compressed = try Self.write(files)
        let written = files.isEmpty ? [] : try ZipReader(data: compressed, limits: Self.ownArchive).entries
        let overRatio = written.indices.filter {
            written[$0].uncompressedSize / max(written[$0].compressedSize, 1) > Self.maxDeflateRatio
        }
        var final = files
        if !overRatio.isEmpty {
            for index in overRatio { final[index].compression = .store }
            compressed = try Self.write(final)
        }
        opened = LibZipArchivePool(compressed)
        names = files.map(\.path)
        nameSet = Set(names)
        self.methods = final.map(\.compression)
    }

    /// Runs `body` with the entries open as an archive that no other caller uses meanwhile; it must
    /// not be used after `body` returns.
    func withOpened<T>(_ body: (LibZipArchive) throws(ZipError) -> T) throws(ZipError) -> T {
        try opened.withArchive(body)
    }

    private static func write(_ files: [(path: String, data: Data, compression: ZipCompression)]) throws(ZipError) -> Data {
        guard !files.isEmpty else { return Data() }
        var writer = ZipWriter()
        for file in files { try writer.add(path: file.path, data: file.data, compression: file.compression) }
        return try writer.finish()
    }

    /// No bounds: the archive is the one this type just wrote from the caller's files.
    private static let ownArchive = ZipLimits(maxEntries: .max, maxEntrySize: .max, maxTotalUncompressedSize: .max, maxCompressionRatio: .max)
}
