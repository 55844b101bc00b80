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

    private enum Entry {
        case file(name: String, data: Data, compression: ZipCompression)
        case copies(ZipPrecompressedEntries)
    }

    private var entries: [Entry] = []
    /// The names of the files added one by one; precompressed groups bring their own set.
    private var fileNames: Set<String> = []
    private var groups: [ZipPrecompressedEntries] = []
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
        guard !groups.contains(where: { $0.nameSet.contains(path) }), fileNames.insert(path).inserted else {
            throw .duplicateEntry(name: path)
        }
        entries.append(.file(name: path, data: data, compression: compression))
    }

    /// Queues entries compressed once beforehand; they are copied into the archive as stored there,
    /// without compressing them again (a template's images and strings, in every pass built from it).
    public mutating func add(_ precompressed: ZipPrecompressedEntries) throws(ZipError) {
        guard !precompressed.names.isEmpty else { return }
        // Each side's names are unique already: look the files and earlier groups up in its set.
        if let name = fileNames.first(where: precompressed.nameSet.contains) { throw .duplicateEntry(name: name) }
        for group in groups {
            if let name = group.names.first(where: precompressed.nameSet.contains) { throw .duplicateEntry(name: name) }
        }
        groups.append(precompressed)
        entries.append(.copies(precompressed))
    }

    /// Writes the archive and returns its bytes; the writer can go on and finish again.
    /// Throws `ZipError.emptyArchive` when nothing was added.
    public func finish() throws(ZipError) -> Data {
        guard let first = entries.first else { throw .emptyArchive }
        // An archive that begins with precompressed entries starts as a copy of their own archive:
        // libzip then keeps their bytes as they are instead of copying each entry in through a
        // source of its own, which halved the time of writing a pass's archive (the same bytes
        // come out; BENCHMARKS.md, "Archives written from the template's own archive").
        if case .copies(let group) = first {
            let opened = group.archive.withUnsafeBytes { bytes in
                Result { () throws(ZipError) -> LibZipArchive in try LibZipArchive.update(copying: bytes) }
            }
            return try write(from: entries.dropFirst(), into: try opened.get())
        }
        return try write(from: entries[...], into: try LibZipArchive.create())
    }

    /// Adds each entry from inside its own `withUnsafeBytes`, then closes the archive at the
    /// deepest level, so every borrowed buffer (and every archive copied from) is still valid when
    /// libzip reads it.
    private func write(from pending: ArraySlice<Entry>, into archive: LibZipArchive) throws(ZipError) -> Data {
        guard let entry = pending.first else { return try archive.closeAndCollect() }
        switch entry {
        case .file(let name, let data, let compression):
            let result = data.withUnsafeBytes { (bytes) -> Result<Data, ZipError> in
                Result { () throws(ZipError) in
                    try archive.addFile(name: name, borrowing: bytes, compression: compression, time: time)
                    return try write(from: pending.dropFirst(), into: archive)
                }
            }
            return try result.get()
        case .copies(let precompressed):
            return try precompressed.withOpened { (source) throws(ZipError) -> Data in
                for (index, name) in precompressed.names.enumerated() {
                    try archive.addCopy(of: index, from: source, name: name, compression: precompressed.methods[index])
                }
                return try write(from: pending.dropFirst(), into: archive)
            }
        }
    }
}
