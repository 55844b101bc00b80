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
            throw SigningError.fileAccess(path: file.path, operation: "read", reason: error.localizedDescription)
        }
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
