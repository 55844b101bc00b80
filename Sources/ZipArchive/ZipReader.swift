import Locking
import Foundation

/// Reads a ZIP archive from memory, treating it as hostile: the way into an uploaded `.pkpass`
/// or `.pkpasses`, and the self-check after a build.
///
/// The central directory is read once, in `init`, where every name is checked and the declared
/// sizes are held against `limits` before a single byte is inflated; `data(for:)` then inflates
/// no more than the entry declared.
public struct ZipReader: Sendable {
    /// The archive's entries in central-directory order.
    public let entries: [ZipEntry]
    /// The bounds this archive was checked against.
    public let limits: ZipLimits

    private let indexByName: [String: Int]
    /// The open archive behind a lock: `zip_t` allows one reader at a time, and copies of a
    /// `ZipReader` share it.
    private let archive: Locked<LibZipArchive>

    /// Opens `data` (copied once) and checks its central directory against `limits`.
    public init(data: Data, limits: ZipLimits = .untrusted) throws(ZipError) {
        let opened = try data.withUnsafeBytes { (bytes) -> Result<LibZipArchive, ZipError> in
            Result { () throws(ZipError) in try LibZipArchive.open(copying: bytes) }
        }.get()
        let count = opened.entryCount
        guard count <= limits.maxEntries else { throw .tooManyEntries(count: count, limit: limits.maxEntries) }
        if let name = RawEntryNames.firstNameWithNUL(in: data) {
            throw .invalidEntryName(name: name, reason: "it contains a NUL character")
        }

        var entries: [ZipEntry] = []
        var indexByName: [String: Int] = [:]
        var total: UInt64 = 0
        for index in 0..<count {
            let record = try opened.entry(at: index)
            let entry = try Self.check(record, limits: limits)
            guard indexByName.updateValue(index, forKey: entry.name) == nil else {
                throw .duplicateEntry(name: entry.name)
            }
            total += record.uncompressedSize
            guard total <= UInt64(limits.maxTotalUncompressedSize) else {
                throw .archiveTooLarge(size: total, limit: limits.maxTotalUncompressedSize)
            }
            entries.append(entry)
        }
        self.entries = entries
        self.limits = limits
        self.indexByName = indexByName
        archive = Locked(opened)
    }

    /// Whether the archive holds an entry named exactly `name`.
    public func contains(_ name: String) -> Bool {
        indexByName[name] != nil
    }

    /// The bytes of the entry named `name`, inflated and checked against its CRC and declared size.
    public func data(for name: String) throws(ZipError) -> Data {
        guard let index = indexByName[name] else { throw .entryNotFound(name: name) }
        let entry = entries[index]
        if entry.isDirectory { return Data() }
        return try archive.withLock { (archive) -> Result<Data, ZipError> in
            Result { () throws(ZipError) in
                try archive.read(at: index, name: name, declaredSize: entry.uncompressedSize)
            }
        }.get()
    }

    /// Turns a central-directory record into an entry, or throws if its name, method or declared
    /// sizes break the rules or the limits.
    private static func check(_ record: LibZipEntryRecord, limits: ZipLimits) throws(ZipError) -> ZipEntry {
        let name = record.name
        try ZipEntryName.validate(name, allowsDirectoryMarker: true)
        if record.isEncrypted { throw .unsupportedEntry(name: name, reason: "the entry is encrypted") }
        guard let compression = record.compression else {
            throw .unsupportedEntry(name: name, reason: "compression method \(record.method)")
        }
        guard record.uncompressedSize <= UInt64(limits.maxEntrySize) else {
            throw .entryTooLarge(name: name, size: record.uncompressedSize, limit: limits.maxEntrySize)
        }
        let ratio = record.uncompressedSize / max(record.compressedSize, 1)
        guard ratio <= UInt64(limits.maxCompressionRatio) else {
            throw .compressionRatioTooHigh(name: name, ratio: ratio, limit: limits.maxCompressionRatio)
        }
        if compression == .store, record.compressedSize != record.uncompressedSize {
            throw .sizeMismatch(name: name, declared: record.uncompressedSize,
                                reason: "is stored in \(record.compressedSize)")
        }
        return ZipEntry(name: name, uncompressedSize: Int(record.uncompressedSize),
                        compressedSize: Int(record.compressedSize), compression: compression,
                        isDirectory: name.hasSuffix("/"), isSymbolicLink: record.isSymbolicLink)
    }
}
