internal import CSQLite
import Foundation

/// Owns one `sqlite3*`; closes it when the last reference goes.
///
/// `sqlite3_close_v2` lets cached statements be finalized after the handle, in any order.
final class SQLiteHandle {
    let pointer: OpaquePointer

    /// Opens `path` (or `:memory:`) with `flags`; throws with SQLite's message when it cannot.
    init(path: String, flags: Int32) throws {
        var pointer: OpaquePointer?
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(pointer)
            throw StorageError.connectionFailed(engine: .sqlite, location: "sqlite:\(path)", message: message)
        }
        self.pointer = pointer
        sqlite3_extended_result_codes(pointer, 1)
    }

    deinit {
        sqlite3_close_v2(pointer)
    }

    /// The error gate: turns the connection's last failure into a typed error naming the SQL, or
    /// naming the file when the database or its volume is full.
    func error(sql: String) -> StorageError {
        let code = sqlite3_extended_errcode(pointer)
        let message = String(cString: sqlite3_errmsg(pointer))
        if code == passwright_sqlite_constraint_unique() || code == passwright_sqlite_constraint_primarykey() {
            return .uniqueViolation(engine: .sqlite, sql: sql, message: message)
        }
        if isFull(code) {
            return .full(engine: .sqlite, location: "sqlite:\(filename)", code: String(code), message: message)
        }
        return .statementFailed(engine: .sqlite, sql: sql, code: String(code), message: message)
    }

    /// Whether `code` says the database or its volume is full: `SQLITE_FULL` (the unix VFS's answer to
    /// `ENOSPC` on a write, and `max_page_count` reached), or an I/O error (growing the WAL index, a
    /// truncate) whose `errno` was `ENOSPC` or `EDQUOT`.
    private func isFull(_ code: Int32) -> Bool {
        switch code & 0xFF {
        case SQLITE_FULL:
            return true
        case SQLITE_IOERR:
            let errno = sqlite3_system_errno(pointer)
            return errno == ENOSPC || errno == EDQUOT
        default:
            return false
        }
    }

    /// The main database's file, `:memory:` for an in-memory one.
    private var filename: String {
        guard let name = sqlite3_db_filename(pointer, "main"), name.pointee != 0 else { return ":memory:" }
        return String(cString: name)
    }

    /// Runs `sql` (one or more statements, no parameters), throwing through the gate on failure.
    /// Opens `path` read-write for one `TRUNCATE` checkpoint (the log written into the file and
    /// emptied), waiting up to the busy timeout for the writer, then closes it.
    static func checkpoint(path: String, busyTimeoutMilliseconds: Int) throws {
        let handle = try SQLiteHandle(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
        sqlite3_busy_timeout(handle.pointer, Int32(clamping: busyTimeoutMilliseconds))
        try handle.exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(pointer, sql, nil, nil, nil) == SQLITE_OK else {
            throw error(sql: sql)
        }
    }
}

/// Owns one prepared `sqlite3_stmt*`, kept in a connection's cache and reused.
final class SQLiteStatement {
    let pointer: OpaquePointer
    /// The handle outlives its statements.
    private let handle: SQLiteHandle

    /// Prepares exactly one statement; trailing statements are refused so a caller's text is never
    /// half run.
    init(sql: String, handle: SQLiteHandle) throws {
        var pointer: OpaquePointer?
        var rest = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle.pointer, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, &tail)
            if let tail { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else { throw handle.error(sql: sql) }
        guard let pointer else {
            throw StorageError.statementFailed(engine: .sqlite, sql: sql, code: "0", message: "the SQL holds no statement")
        }
        self.pointer = pointer
        self.handle = handle
        guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            throw StorageError.statementFailed(engine: .sqlite, sql: sql, code: "0", message: "the SQL holds more than one statement; run scripts as a Migration")
        }
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    /// Whether the statement leaves the database unchanged, so a read-only connection may run it.
    var isReadOnly: Bool {
        sqlite3_stmt_readonly(pointer) != 0
    }
}
