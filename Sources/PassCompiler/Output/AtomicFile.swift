import Foundation
internal import CGlibc
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a reader sees either no file or the whole new one, never half of one: the
/// bytes go to a file without a name (`O_TMPFILE`) or with a temporary one in the same folder, which
/// is then linked or renamed into place.
public enum AtomicFile {
    /// What to do when the target already exists.
    public enum Existing: Sendable {
        /// Replace it atomically.
        case replace
        /// Fail with `PassCompilerError.outputExists`, leaving the existing file untouched.
        case keep
    }

    /// Writes `data` to `url` atomically, creating the parent folder if needed.
    ///
    /// `durable` adds an `fsync` before the file gets its name, so it survives a power cut once this
    /// returns; a batch writing thousands of files skips it and calls ``flushToDisk()`` once at the
    /// end instead, which is far cheaper than one `fsync` per pass.
    public static func write(_ data: Data, to url: URL, existing: Existing = .replace, durable: Bool = true) throws(PassCompilerError) {
        try write(data, toPath: url.path, existing: existing, durable: durable)
    }

    /// ``write(_:to:existing:durable:)`` for a file path, which a batch builds for each pass more
    /// cheaply than a `URL` (2 % of a batch pass's time went to `URL.appendingPathComponent`).
    public static func write(_ data: Data, toPath path: String, existing: Existing = .replace, durable: Bool = true) throws(PassCompilerError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // A file without a name needs no temporary name and no unlink: one directory change, not three.
        if existing == .keep, try writeUnnamed(data, to: path, in: folder, durable: durable) { return }
        try writeNamed(data, to: path, in: folder, temporary: folder + "/.\(name).\(UUID().uuidString).tmp",
                       existing: existing, durable: durable)
    }

    /// Flushes everything written so far to disk (one `sync`), the end of a batch written with
    /// `durable: false`.
    public static func flushToDisk() {
        sync()
    }

    /// Writes through `O_TMPFILE` and links the file in; false, having changed nothing, where the
    /// file system cannot make unnamed files or `/proc` is not mounted.
    private static func writeUnnamed(_ data: Data, to path: String, in folder: String, durable: Bool) throws(PassCompilerError) -> Bool {
        guard let descriptor = try open(folder, path: path, { passwright_open_unnamed(folder, 0o644) }) else { return false }
        try fill(descriptor, with: data, durable: durable, path: path, cleanUp: {})
        defer { close(descriptor) }
        guard passwright_link_unnamed(descriptor, path) == 0 else {
            if errno == EEXIST { throw .outputExists(path: path) }
            if errno == ENOENT, access("/proc/self/fd", F_OK) != 0 { return false }
            throw failure(path, "cannot link the new file into place")
        }
        return true
    }

    private static func writeNamed(_ data: Data, to path: String, in folder: String, temporary: String,
                                   existing: Existing, durable: Bool) throws(PassCompilerError) {
        guard let descriptor = try open(folder, path: path, {
            Glibc.open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        }) else { throw failure(path, "cannot create a temporary file") }
        try fill(descriptor, with: data, durable: durable, path: path, cleanUp: { unlink(temporary) })
        guard close(descriptor) == 0 else {
            let error = failure(path, "cannot write")
            unlink(temporary)
            throw error
        }
        switch existing {
        case .replace:
            guard rename(temporary, path) == 0 else {
                let error = failure(path, "cannot move the temporary file into place")
                unlink(temporary)
                throw error
            }
        case .keep:
            // link(2) refuses an existing target atomically, unlike a check followed by rename.
            guard link(temporary, path) == 0 else {
                let error = errno == EEXIST
                    ? PassCompilerError.outputExists(path: path)
                    : failure(path, "cannot move the temporary file into place")
                unlink(temporary)
                throw error
            }
            unlink(temporary)
        }
    }

    /// Runs `opening`, making `folder` once if it is missing rather than checking for it before every
    /// file; nil when the file system cannot make unnamed files.
    private static func open(_ folder: String, path: String, _ opening: () -> Int32) throws(PassCompilerError) -> Int32? {
        var descriptor = opening()
        if descriptor < 0, errno == ENOENT {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .output(path: path, message: error.localizedDescription)
            }
            descriptor = opening()
        }
        if descriptor < 0, errno == EOPNOTSUPP || errno == EISDIR { return nil }
        guard descriptor >= 0 else { throw failure(path, "cannot create the file") }
        return descriptor
    }

    /// Writes all of `data` (and syncs it when `durable`); on failure closes the descriptor, runs
    /// `cleanUp` and throws.
    private static func fill(_ descriptor: Int32, with data: Data, durable: Bool, path: String, cleanUp: () -> Void) throws(PassCompilerError) {
        var written = 0
        let wrote = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
        guard wrote, !durable || fsync(descriptor) == 0 else {
            let error = failure(path, "cannot write")
            close(descriptor)
            cleanUp()
            throw error
        }
    }

    private static func failure(_ path: String, _ what: String) -> PassCompilerError {
        .output(path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
