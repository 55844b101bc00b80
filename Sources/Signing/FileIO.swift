import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File reads and writes with errors that name the path.
enum FileIO {
    /// Reads a whole file.
    static func read(_ file: URL) throws -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw SigningError.fileAccess(path: file.path, operation: "read", reason: reason(error, at: file.path))
        }
    }

    /// Why `path` could not be read, in words that are true: Foundation on Linux reports a file it
    /// may not read as "doesn't exist", so permission is checked first, naming the user this process
    /// runs as and the file's owner and mode (the usual cause in a container: files made by root).
    static func reason(_ error: any Error, at path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return error.localizedDescription }
        let wanted = (status.st_mode & S_IFMT) == S_IFDIR ? R_OK | X_OK : R_OK
        guard access(path, wanted) != 0 else { return error.localizedDescription }
        let user = getpwuid(geteuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "uid \(geteuid())"
        let mode = String(status.st_mode & 0o7777, radix: 8)
        return "permission denied: the server runs as user \(user) (uid \(geteuid())), and \(path) belongs to uid \(status.st_uid) with mode 0\(mode)"
    }

    /// Creates a folder (and its parents) if missing.
    static func createFolder(_ folder: URL, permissions: Int) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: permissions])
        } catch {
            throw SigningError.fileAccess(path: folder.path, operation: "create folder", reason: error.localizedDescription)
        }
    }

    /// Writes so a reader never sees half a file and a key is never readable by others, even briefly.
    /// `data` goes to a temporary file created with `permissions` in the destination's folder, is
    /// flushed, then renamed over `url`.
    static func writeAtomically(_ data: Data, to url: URL, permissions: mode_t) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(SecureRandom.token(length: 12)).tmp")
        let fail: (String) -> SigningError = { .fileAccess(path: url.path, operation: "write", reason: $0) }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw fail(String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 { if errno == EINTR { continue } else { return false } }
                offset += count
            }
            return true
        }
        let flushed = written && fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard flushed else {
            unlink(temporary.path)
            throw fail(reason)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw fail(reason)
        }
    }
}
