import Foundation

/// Files compressed once and then copied, still compressed, into many archives.
///
/// A template's images and `pass.strings` are the same in every pass built from it; compressing
/// them (and computing their CRCs) once when the template loads, instead of once per pass, takes
/// zlib off the hot path of batch builds.
public struct ZipPrecompressedEntries: Sendable {
    /// Entry names, in archive order.
    public let names: [String]
    private let archive: Data

    /// Compresses `files` now, each as asked.
    public init(_ files: [(path: String, data: Data, compression: ZipCompression)]) throws(ZipError) {
        var writer = ZipWriter()
        for file in files { try writer.add(path: file.path, data: file.data, compression: file.compression) }
        archive = files.isEmpty ? Data() : try writer.finish()
        names = files.map(\.path)
    }

    /// Runs `body` with the entries open as an archive over their own bytes, not a copy: every pass
    /// copied 300 KB (the loyalty sample) before it could copy the entries. The archive must not be
    /// used after `body` returns.
    func withOpened<T>(_ body: (LibZipArchive) throws(ZipError) -> T) throws(ZipError) -> T {
        let result = archive.withUnsafeBytes { bytes in
            Result { () throws(ZipError) -> T in try body(LibZipArchive.open(borrowing: bytes)) }
        }
        return try result.get()
    }
}
