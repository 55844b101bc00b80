import Foundation
internal import CZip

/// Owns one open libzip archive (`zip_t`) over an in-memory buffer; discards it in `deinit`
/// unless it was closed.
///
/// Not thread-safe (neither is `zip_t`): `ZipReader` keeps it behind a mutex, `ZipWriter` uses
/// one per `finish()` call.
final class LibZipArchive {
    private var pointer: OpaquePointer?
    private let buffer: LibZipSource

    private init(buffer: LibZipSource, flags: Int32, operation: String) throws(ZipError) {
        _ = Self.staticsFilled
        self.buffer = buffer
        pointer = try buffer.hand { (source) throws(ZipError) in
            try LibZipGate.withError(operation: operation) { failure in
                zip_open_from_source(source, flags, failure)
            }
        }
    }

    deinit {
        if let pointer { zip_discard(pointer) }
    }

    /// libzip 1.7's `zip_open_from_source` fills two function-level `static` bitmaps on first use
    /// without a lock; a second thread can see one set and the other still `-1`, take a writable
    /// buffer for read-only and fail with "Read-only archive" (seen here under parallel tests).
    /// One open behind Swift's thread-safe lazy `static let` fills them before any concurrent use.
    private static let staticsFilled: Void = {
        guard let source = zip_source_buffer_create(nil, 0, 0, nil) else { return }
        if let archive = zip_open_from_source(source, ZIP_CREATE, nil) {
            zip_discard(archive)
        } else {
            zip_source_free(source)
        }
    }()

    /// An archive to add entries to, over a private copy of `bytes` (an archive this module wrote):
    /// libzip keeps the entries already there byte for byte, without reading them through a source
    /// each, and writes only what is added after them and the central directory.
    static func update(copying bytes: UnsafeRawBufferPointer) throws(ZipError) -> LibZipArchive {
        try LibZipArchive(buffer: LibZipSource(copying: bytes), flags: 0, operation: "opening the archive to add to")
    }

    /// A new, empty archive written into memory.
    static func create() throws(ZipError) -> LibZipArchive {
        try LibZipArchive(buffer: LibZipSource(), flags: ZIP_CREATE | ZIP_TRUNCATE, operation: "creating an archive")
    }

    /// An archive read from a private copy of `bytes`, with libzip's consistency checks on
    /// (local headers must agree with the central directory; duplicate names are refused).
    static func open(copying bytes: UnsafeRawBufferPointer) throws(ZipError) -> LibZipArchive {
        // libzip opens zero bytes as an empty archive; a real one holds at least its 22-byte end record.
        guard !bytes.isEmpty else { throw LibZipGate.error(code: ZIP_ER_NOZIP, operation: "opening the archive", entry: nil) }
        return try LibZipArchive(buffer: LibZipSource(copying: bytes), flags: ZIP_RDONLY | ZIP_CHECKCONS,
                                 operation: "opening the archive")
    }

    private var open: OpaquePointer {
        guard let pointer else { preconditionFailure("LibZipArchive used after close") }
        return pointer
    }

    // MARK: Writing

    /// Adds a file whose bytes libzip reads only during `closeAndCollect()`: `bytes` must stay
    /// valid and unchanged until then.
    func addFile(name: String, borrowing bytes: UnsafeRawBufferPointer, compression: ZipCompression,
                 time: DOSTimestamp) throws(ZipError) {
        let archive = open
        let index = try LibZipSource(borrowing: bytes, entry: name).hand { (source) throws(ZipError) in
            let index = zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
            try LibZipGate.check(index, archive: archive, operation: "adding the entry", entry: name)
            return zip_uint64_t(index)
        }
        // Level 6 is zlib's own default; libzip's default (0) means 9, slower for a sliver less size.
        try LibZipGate.check(Int64(zip_set_file_compression(archive, index, compression.libzipMethod, compression == .store ? 0 : 6)),
                             archive: archive, operation: "setting the compression", entry: name)
        try LibZipGate.check(Int64(zip_file_set_dostime(archive, index, time.time, time.date, 0)),
                             archive: archive, operation: "setting the modification time", entry: name)
        // A regular file readable by everyone (rw-r--r--), so `unzip` extracts sane permissions.
        try LibZipGate.check(Int64(zip_file_set_external_attributes(archive, index, 0, zip_uint8_t(ZIP_OPSYS_UNIX),
                                                                    zip_uint32_t(0o100644) << 16)),
                             archive: archive, operation: "setting the file attributes", entry: name)
    }

    /// Copies entry `index` of `source` as it is stored there — compressed bytes, CRC and sizes — without
    /// inflating or compressing anything; `compression` is the entry's method there. `source` must
    /// stay open until `closeAndCollect()`.
    func addCopy(of index: Int, from source: LibZipArchive, name: String, compression: ZipCompression) throws(ZipError) {
        let archive = open
        guard let entrySource = zip_source_zip(archive, source.open, zip_uint64_t(index), zip_flags_t(ZIP_FL_COMPRESSED), 0, -1) else {
            throw LibZipGate.error(zip_get_error(archive), operation: "copying the entry", entry: name)
        }
        let added = zip_file_add(archive, name, entrySource, zip_flags_t(ZIP_FL_ENC_UTF_8))
        if added < 0 { zip_source_free(entrySource) }
        try LibZipGate.check(added, archive: archive, operation: "copying the entry", entry: name)
        // Keep the source's method: any other (including libzip's default) would inflate and recompress.
        try LibZipGate.check(Int64(zip_set_file_compression(archive, zip_uint64_t(added), compression.libzipMethod, 0)),
                             archive: archive, operation: "keeping the compression", entry: name)
        try LibZipGate.check(Int64(zip_file_set_external_attributes(archive, zip_uint64_t(added), 0, zip_uint8_t(ZIP_OPSYS_UNIX),
                                                                    zip_uint32_t(0o100644) << 16)),
                             archive: archive, operation: "setting the file attributes", entry: name)
    }

    /// Writes the archive (compressing now, from the borrowed bytes) and returns its bytes.
    func closeAndCollect() throws(ZipError) -> Data {
        let archive = open
        try LibZipGate.check(Int64(zip_close(archive)), archive: archive, operation: "writing the archive")
        pointer = nil
        return try buffer.readAll()
    }

    // MARK: Reading

    /// How many entries the central directory lists.
    var entryCount: Int { Int(zip_get_num_entries(open, 0)) }

    /// The central directory's record of the entry at `index`.
    func entry(at index: Int) throws(ZipError) -> LibZipEntryRecord {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        let archive = open
        try LibZipGate.check(Int64(zip_stat_index(archive, zip_uint64_t(index), 0, &stat)),
                             archive: archive, operation: "reading entry #\(index) of the central directory")
        let required = zip_uint64_t(ZIP_STAT_NAME | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD)
        guard stat.valid & required == required, let name = stat.name else {
            throw .libzip(operation: "reading entry #\(index) of the central directory", entry: nil,
                          message: "the entry has no name, size or method")
        }
        let encrypted = stat.valid & zip_uint64_t(ZIP_STAT_ENCRYPTION_METHOD) != 0
            && stat.encryption_method != UInt16(ZIP_EM_NONE)
        var system: zip_uint8_t = 0
        var attributes: zip_uint32_t = 0
        // A Unix archiver keeps the file mode in the top 16 bits of the external attributes.
        let symbolicLink = zip_file_get_external_attributes(archive, zip_uint64_t(index), 0, &system, &attributes) == 0
            && system == zip_uint8_t(ZIP_OPSYS_UNIX) && (attributes >> 16) & 0o170000 == 0o120000
        return LibZipEntryRecord(name: String(cString: name), uncompressedSize: stat.size,
                                 compressedSize: stat.comp_size, method: Int32(stat.comp_method),
                                 isEncrypted: encrypted, isSymbolicLink: symbolicLink)
    }

    /// Inflates the entry at `index`, refusing to produce more than `declaredSize` bytes: reading
    /// stops one byte past the declaration, so a lying header never costs more than it claimed.
    func read(at index: Int, name: String, declaredSize: Int) throws(ZipError) -> Data {
        let archive = open
        guard let file = zip_fopen_index(archive, zip_uint64_t(index), 0) else {
            throw LibZipGate.error(zip_get_error(archive), operation: "opening the entry", entry: name)
        }
        defer { zip_fclose(file) }
        let capacity = declaredSize + 1
        let buffer = malloc(capacity)!
        var filled = 0
        while filled < capacity {
            let read = zip_fread(file, buffer + filled, zip_uint64_t(capacity - filled))
            if read < 0 {
                free(buffer)
                throw LibZipGate.error(zip_file_get_error(file), operation: "inflating the entry", entry: name)
            }
            if read == 0 { break }
            filled += Int(read)
        }
        guard filled == declaredSize else {
            free(buffer)
            let reason = filled > declaredSize ? "inflates to more" : "holds only \(filled)"
            throw .sizeMismatch(name: name, declared: UInt64(declaredSize), reason: reason)
        }
        return Data(bytesNoCopy: buffer, count: declaredSize, deallocator: .free)
    }
}

/// What the central directory says about one entry, before any check.
struct LibZipEntryRecord {
    let name: String
    let uncompressedSize: UInt64
    let compressedSize: UInt64
    let method: Int32
    let isEncrypted: Bool
    /// Whether a Unix archiver marked the entry as a symbolic link (its bytes are the link's target).
    let isSymbolicLink: Bool

    /// The entry's method as `ZipCompression`, or nil for any other (bzip2, LZMA, ...).
    var compression: ZipCompression? {
        switch method {
        case ZIP_CM_STORE: .store
        case ZIP_CM_DEFLATE: .deflate
        default: nil
        }
    }
}

extension ZipCompression {
    /// The ZIP method number libzip takes for it.
    var libzipMethod: Int32 { self == .store ? ZIP_CM_STORE : ZIP_CM_DEFLATE }
}
