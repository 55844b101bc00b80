internal import CSQLite
import Foundation

/// What a SQLite copy (a backup, or a file checked before a restore) holds.
public struct SQLiteCopyReport: Sendable, Equatable {
    /// Database pages copied (or in the file).
    public let pages: Int
    /// The file's size in bytes.
    public let bytes: Int
    /// The highest schema migration recorded in it, `nil` when it has none (not a Passwright database).
    public let migrationVersion: Int?
}

/// Consistent copies of a SQLite database while servers keep writing it, and putting one back.
///
/// The copy uses SQLite's online backup API inside one read transaction on the source: under WAL a
/// reader sees one snapshot for as long as its transaction lasts while writers carry on beside it,
/// so the pages copied step by step (with progress between steps) all come from the same moment and
/// the backup never restarts, however busy the server is. Every write acknowledged before the copy
/// began is in that snapshot; writes after it are not.
public enum SQLiteBackup {
    /// Pages copied per step: 1,024 pages of 4 KiB, so progress moves every 4 MiB.
    static let pagesPerStep: Int32 = 1024

    /// Copies the database at `source` to `destination` (which must not exist), checks the copy with
    /// `PRAGMA integrity_check`, and reports it. `progress` gets (pages copied, pages in all).
    public static func backUp(from source: String, to destination: String,
                              progress: (Int, Int) -> Void = { _, _ in }) throws -> SQLiteCopyReport {
        guard FileManager.default.fileExists(atPath: source) else {
            throw StorageError.copy(file: source, reason: "no database here (check --database or --data-dir)")
        }
        // Written beside the destination and renamed over it once checked: never half a backup.
        let staging = destination + ".partial"
        try? FileManager.default.removeItem(atPath: staging)
        do {
            let report = try copy(from: source, to: staging, progress: progress)
            try syncFile(staging)
            guard rename(staging, destination) == 0 else {
                throw StorageError.copy(file: destination, reason: "cannot write it: \(String(cString: strerror(errno)))")
            }
            return report
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    private static func copy(from source: String, to destination: String, progress: (Int, Int) -> Void) throws -> SQLiteCopyReport {
        let from = try SQLiteHandle(path: source, flags: SQLITE_OPEN_READONLY)
        sqlite3_busy_timeout(from.pointer, 5_000)
        let to = try SQLiteHandle(path: destination, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // One read transaction over the whole copy: one snapshot (see the type's comment).
        try from.exec("BEGIN")
        _ = try query(from, "SELECT COUNT(*) FROM sqlite_master")
        defer { try? from.exec("COMMIT") }
        guard let backup = sqlite3_backup_init(to.pointer, "main", from.pointer, "main") else {
            throw StorageError.copy(file: destination, reason: "cannot start the backup: \(String(cString: sqlite3_errmsg(to.pointer)))")
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, pagesPerStep)
            let total = Int(sqlite3_backup_pagecount(backup))
            progress(total - Int(sqlite3_backup_remaining(backup)), total)
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else {
            throw StorageError.copy(file: destination, reason: "the backup stopped: \(String(cString: sqlite3_errstr(code)))")
        }
        // One self-contained file: the copy leaves WAL mode (the server turns it back on when it opens it).
        _ = try query(to, "PRAGMA journal_mode = DELETE")
        return try check(to, file: destination)
    }

    /// Checks that `file` is an intact SQLite database (`PRAGMA integrity_check`) and reports it.
    public static func inspect(_ file: String) throws -> SQLiteCopyReport {
        guard FileManager.default.fileExists(atPath: file) else { throw StorageError.copy(file: file, reason: "no such file") }
        let handle = try SQLiteHandle(path: file, flags: SQLITE_OPEN_READONLY)
        do {
            return try check(handle, file: file)
        } catch StorageError.statementFailed(_, _, let code, let message) {
            throw StorageError.copy(file: file, reason: "not a SQLite database backup (\(message), code \(code)); give a file made by passwright backup")
        }
    }

    /// Replaces the database at `database` with the copy at `backup`, refusing while any process has
    /// it open (see ``SQLiteFileLock``). The copy is checked first, written beside the database, made
    /// durable and renamed over it; the old WAL and shared-memory files go, since they belong to the
    /// replaced file and SQLite would otherwise replay them into the restored one.
    public static func restore(_ backup: String, into database: String) throws -> SQLiteCopyReport {
        let report = try inspect(backup)
        let folder = URL(fileURLWithPath: database).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard let lock = try SQLiteFileLock.take(for: database, exclusive: true) else {
            throw StorageError.inUse(database: database)
        }
        defer { withExtendedLifetime(lock) {} }
        let staging = database + ".restoring"
        try? FileManager.default.removeItem(atPath: staging)
        do {
            try FileManager.default.copyItem(atPath: backup, toPath: staging)
            try syncFile(staging)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            guard rename(staging, database) == 0 else {
                throw StorageError.copy(file: database, reason: "cannot replace it: \(String(cString: strerror(errno)))")
            }
            try syncFile(folder.path)
        } catch let error as StorageError {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw StorageError.copy(file: database, reason: "cannot write the restored copy: \(error.localizedDescription)")
        }
        return report
    }

    private static func check(_ handle: SQLiteHandle, file: String) throws -> SQLiteCopyReport {
        let verdict = try query(handle, "PRAGMA integrity_check").first ?? "no answer"
        guard verdict == "ok" else {
            throw StorageError.copy(file: file, reason: "the copy is damaged (PRAGMA integrity_check: \(verdict))")
        }
        let pages = Int(try query(handle, "PRAGMA page_count").first ?? "0") ?? 0
        let hasMigrations = try !query(handle, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").isEmpty
        let version = hasMigrations ? try query(handle, "SELECT MAX(version) FROM schema_migrations").first.flatMap { Int($0) } : nil
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
        return SQLiteCopyReport(pages: pages, bytes: bytes, migrationVersion: version)
    }

    /// The first column of each row of `sql`, as text.
    private static func query(_ handle: SQLiteHandle, _ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle.pointer, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw handle.error(sql: sql)
        }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return values }
            guard code == SQLITE_ROW else { throw handle.error(sql: sql) }
            values.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
    }

    private static func syncFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw StorageError.copy(file: path, reason: "cannot open to sync: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw StorageError.copy(file: path, reason: "fsync failed: \(String(cString: strerror(errno)))") }
    }
}
