import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on `<database>.lock`, held for as long as a process has the database open, so a
/// restore can tell that a server still uses the file it would replace.
///
/// Every opener holds it shared (several servers on one file are fine); `restore` needs it exclusive
/// and refuses when it cannot have it at once. `flock` locks go with the open file description, so
/// the kernel drops them when the process dies: a crashed server never leaves the database locked.
final class SQLiteFileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The lock file of `database`.
    static func path(for database: String) -> String { database + ".lock" }

    /// Takes the lock shared, or exclusive; `nil` when another process holds it the other way.
    static func take(for database: String, exclusive: Bool) throws -> SQLiteFileLock? {
        let file = path(for: database)
        let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError.copy(file: file, reason: "cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let failure = errno
            close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw StorageError.copy(file: file, reason: "cannot lock: \(String(cString: strerror(failure)))")
        }
        return SQLiteFileLock(descriptor: descriptor)
    }
}
