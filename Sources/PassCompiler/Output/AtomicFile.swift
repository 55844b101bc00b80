import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a reader sees either no file or the whole new one, never half of one: the
/// bytes go to a temporary file in the same folder, which is then renamed (or linked) into place.
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
    /// `durable` adds an `fsync` before the rename, so the file survives a power cut once this returns;
    /// a batch writing thousands of files skips it and calls ``flushToDisk()`` once at the
    /// end instead, which is far cheaper than one `fsync` per pass.
    public static func write(_ data: Data, to url: URL, existing: Existing = .replace, durable: Bool = true) throws(PassCompilerError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.path + "/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        var descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            // The folder is missing: make it once, rather than checking for it before every file.
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .output(path: url.path, message: error.localizedDescription)
            }
            descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw failure(url, "cannot create a temporary file") }
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
        let synced = !durable || fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard wrote, synced, closed else {
            let error = failure(url, "cannot write")
            unlink(temporary)
            throw error
        }
        switch existing {
        case .replace:
            guard rename(temporary, url.path) == 0 else {
                let error = failure(url, "cannot move the temporary file into place")
                unlink(temporary)
                throw error
            }
        case .keep:
            // link(2) refuses an existing target atomically, unlike a check followed by rename.
            guard link(temporary, url.path) == 0 else {
                let error = errno == EEXIST
                    ? PassCompilerError.outputExists(path: url.path)
                    : failure(url, "cannot move the temporary file into place")
                unlink(temporary)
                throw error
            }
            unlink(temporary)
        }
    }

    /// Flushes everything written so far to disk (one `sync`), the end of a batch written with
    /// `durable: false`.
    public static func flushToDisk() {
        sync()
    }

    private static func failure(_ url: URL, _ what: String) -> PassCompilerError {
        .output(path: url.path, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
