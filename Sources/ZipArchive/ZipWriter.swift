import Foundation

/// Builds a ZIP archive in memory: the container of every `.pkpass` and `.pkpasses`.
///
/// Output is deterministic (entries in the order added, one fixed modification time, fixed
/// attributes), so the same pass rebuilt gives the same bytes and the same ETag. Added bytes are
/// not copied: libzip reads them straight from the `Data` values when `finish()` writes the archive,
/// which keeps batch builds of thousands of passes a second cheap.
public struct ZipWriter: Sendable {
    /// The modification time written when none is given: 1980-01-01 00:00 UTC, the ZIP epoch.
    public static let defaultModificationDate = Date(timeIntervalSince1970: 315_532_800)

    private struct Entry {
        let name: String
        let data: Data
        let compression: ZipCompression
    }

    private var entries: [Entry] = []
    private var names: Set<String> = []
    private let time: DOSTimestamp

    /// Starts an empty archive whose entries carry `modificationDate` (read as UTC, to the
    /// 2-second precision ZIP headers hold).
    public init(modificationDate: Date = ZipWriter.defaultModificationDate) {
        time = DOSTimestamp(modificationDate)
    }

    /// Queues a file; rejects names that are empty, absolute, hold `.`, `..`, empty components,
    /// backslashes or NUL, or repeat an earlier entry, since Wallet and unzip tools read such names
    /// differently or unsafely.
    public mutating func add(path: String, data: Data, compression: ZipCompression) throws(ZipError) {
        try ZipEntryName.validate(path, allowsDirectoryMarker: false)
        guard names.insert(path).inserted else { throw .duplicateEntry(name: path) }
        entries.append(Entry(name: path, data: data, compression: compression))
    }

    /// Writes the archive and returns its bytes; the writer can go on and finish again.
    /// Throws `ZipError.emptyArchive` when nothing was added.
    public func finish() throws(ZipError) -> Data {
        guard !entries.isEmpty else { throw .emptyArchive }
        let archive = try LibZipArchive.create()
        return try write(from: entries[...], into: archive)
    }

    /// Adds each entry from inside its own `withUnsafeBytes`, then closes the archive at the
    /// deepest level, so every borrowed buffer is still valid when libzip reads it.
    private func write(from pending: ArraySlice<Entry>, into archive: LibZipArchive) throws(ZipError) -> Data {
        guard let entry = pending.first else { return try archive.closeAndCollect() }
        let result = entry.data.withUnsafeBytes { (bytes) -> Result<Data, ZipError> in
            Result { () throws(ZipError) in
                try archive.addFile(name: entry.name, borrowing: bytes, compression: entry.compression, time: time)
                return try write(from: pending.dropFirst(), into: archive)
            }
        }
        return try result.get()
    }
}
