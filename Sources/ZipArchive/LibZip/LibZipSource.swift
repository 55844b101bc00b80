import Foundation
internal import CZip

/// Owns one reference to a libzip data source (`zip_source_t`) and drops it in `deinit`.
///
/// libzip reference-counts sources: handing one to an archive (`hand(to:)`) adds a reference for
/// the archive, so this object's own reference stays valid whether the hand-over succeeds or not.
final class LibZipSource {
    let pointer: OpaquePointer

    /// An empty, growable in-memory buffer for an archive to be written into.
    convenience init() throws(ZipError) {
        try self.init(bytes: nil, count: 0, freeWhenDone: false, operation: "creating the output buffer")
    }

    /// A source over bytes that libzip does NOT copy: the caller keeps them alive and unchanged
    /// until the archive using this source is closed or discarded (c-libraries.md, libzip).
    convenience init(borrowing bytes: UnsafeRawBufferPointer, entry: String) throws(ZipError) {
        try self.init(bytes: bytes.baseAddress, count: bytes.count, freeWhenDone: false,
                      operation: "creating a source for the entry's bytes", entry: entry)
    }

    /// A source over a private `malloc`ed copy of (non-empty) `bytes`, which libzip frees with the source.
    convenience init(copying bytes: UnsafeRawBufferPointer) throws(ZipError) {
        // Out of memory here is as fatal as it is for any Swift allocation.
        let copy = malloc(bytes.count)!
        copy.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        do {
            try self.init(bytes: copy, count: bytes.count, freeWhenDone: true, operation: "creating a source for the archive")
        } catch {
            free(copy)
            throw error
        }
    }

    private init(bytes: UnsafeRawPointer?, count: Int, freeWhenDone: Bool, operation: String,
                 entry: String? = nil) throws(ZipError) {
        pointer = try LibZipGate.withError(operation: operation, entry: entry) { failure in
            zip_source_buffer_create(bytes, zip_uint64_t(count), freeWhenDone ? 1 : 0, failure)
        }
    }

    deinit { zip_source_free(pointer) }

    /// Runs a libzip call that takes ownership of the source on success (`zip_file_add`,
    /// `zip_open_from_source`): the archive gets a reference of its own, this object keeps its.
    func hand<T>(to take: (OpaquePointer) throws(ZipError) -> T) throws(ZipError) -> T {
        zip_source_keep(pointer)
        do {
            return try take(pointer)
        } catch {
            zip_source_free(pointer)
            throw error
        }
    }

    /// Reads the whole buffer back, e.g. the archive bytes after `zip_close` wrote them here.
    func readAll() throws(ZipError) -> Data {
        try LibZipGate.check(Int64(zip_source_open(pointer)), source: pointer, operation: "opening the written archive")
        defer { zip_source_close(pointer) }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        try LibZipGate.check(Int64(zip_source_stat(pointer, &stat)), source: pointer, operation: "sizing the written archive")
        let size = Int(stat.size)
        guard size > 0, let buffer = malloc(size) else { return Data() }
        var filled = 0
        while filled < size {
            let read = zip_source_read(pointer, buffer + filled, zip_uint64_t(size - filled))
            if read <= 0 {
                free(buffer)
                try LibZipGate.check(read, source: pointer, operation: "reading the written archive")
                break
            }
            filled += Int(read)
        }
        guard filled == size else {
            throw .libzip(operation: "reading the written archive", entry: nil,
                          message: "got \(filled) of \(size) bytes")
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }
}
