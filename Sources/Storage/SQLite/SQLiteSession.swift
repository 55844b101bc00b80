internal import CSQLite
import Foundation

/// One SQLite connection and its statement cache: the work behind the writer's actor
/// (``SQLiteConnection``) and the readers (``SQLiteReaders``).
final class SQLiteSession: @unchecked Sendable {  // @unchecked: never shared; its owner (the writer's actor, or SQLiteReaders while lent) gives it to one thread at a time
    /// The writer takes every write; readers are opened read-only and serve `SELECT`s under WAL.
    enum Role {
        case writer
        case reader
    }

    private var handle: SQLiteHandle?
    /// Prepared once per distinct SQL text and reused; statement texts are code, so the set is small.
    private var statements: [String: SQLiteStatement] = [:]
    private static let statementCacheLimit = 256

    /// Opens `path` (`:memory:` for an in-memory database) in `role`.
    init(path: String, role: Role, busyTimeoutMilliseconds: Int) throws {
        let access = role == .writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        let handle = try SQLiteHandle(path: path, flags: access | SQLITE_OPEN_NOMUTEX)
        sqlite3_busy_timeout(handle.pointer, Int32(clamping: busyTimeoutMilliseconds))
        if role == .writer {
            // WAL lets readers run beside the writer; NORMAL is durable across application crashes
            // in WAL mode and only risks the last commits on power loss.
            try handle.exec("PRAGMA journal_mode = WAL")
            try handle.exec("PRAGMA synchronous = NORMAL")
            // Deleted and overwritten content is zeroed, not left in free space: an erased holder's
            // data must not be readable in the database file afterwards.
            try handle.exec("PRAGMA secure_delete = ON")
        }
        try handle.exec("PRAGMA foreign_keys = ON")
        self.handle = handle
    }

    func execute(_ sql: SQL) throws -> Int {
        try run(sql, on: prepared(sql)).changes
    }

    func query(_ sql: SQL) throws -> [Row] {
        try run(sql, on: prepared(sql)).rows
    }

    /// The rows of `sql` if it only reads, or `nil` (without running it) if it would write.
    func queryIfReadOnly(_ sql: SQL) throws -> [Row]? {
        let statement = try prepared(sql)
        return statement.isReadOnly ? try run(sql, on: statement).rows : nil
    }

    func executeScript(_ script: String) throws {
        try openHandle().exec(script)
    }

    /// The statements that open, end and divide the writer's shared transaction (``SQLiteCommitGroup``).
    enum Control: String {
        /// Opens it, taking the write lock at once.
        case begin = "BEGIN IMMEDIATE"
        case commit = "COMMIT"
        case rollback = "ROLLBACK"
        /// Starts one write's part of it.
        case savepoint = "SAVEPOINT write"
        /// Keeps the write's part; it commits with the transaction.
        case releaseSavepoint = "RELEASE write"
        /// Undoes the write's part and leaves the rest of the transaction as it was.
        case rollbackToSavepoint = "ROLLBACK TO write; RELEASE write"
    }

    func run(_ control: Control) throws {
        try openHandle().exec(control.rawValue)
    }

    /// Whether a transaction is open: SQLite ends one by itself after some errors (`SQLITE_FULL`,
    /// `SQLITE_IOERR`, `SQLITE_NOMEM`, a `SQLITE_BUSY` on commit).
    var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle.pointer) == 0
    }

    func close() {
        statements.removeAll()
        handle = nil
    }

    private func openHandle() throws -> SQLiteHandle {
        guard let handle else { throw StorageError.closed(engine: .sqlite) }
        return handle
    }

    /// The cached statement for `sql`'s text, prepared on first use.
    private func prepared(_ sql: SQL) throws -> SQLiteStatement {
        if let statement = statements[sql.text] { return statement }
        let statement = try SQLiteStatement(sql: sql.text, handle: openHandle())
        if statements.count >= Self.statementCacheLimit { statements.removeAll() }
        statements[sql.text] = statement
        return statement
    }

    /// Binds, steps and resets one cached statement.
    private func run(_ sql: SQL, on statement: SQLiteStatement) throws -> (rows: [Row], changes: Int) {
        let handle = try openHandle()
        let pointer = statement.pointer
        defer {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
        }
        try bind(sql, to: pointer, on: handle)
        let columns = (0..<sqlite3_column_count(pointer)).map { String(cString: sqlite3_column_name(pointer, $0)) }
        let totalBefore = sqlite3_total_changes64(handle.pointer)
        var rows: [Row] = []
        while true {
            let code = sqlite3_step(pointer)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw handle.error(sql: sql.text) }
            rows.append(Row(columns: columns, values: columns.indices.map { Self.value(of: pointer, column: Int32($0)) }))
        }
        // sqlite3_changes keeps the previous statement's count when this one changed nothing.
        let changed = sqlite3_total_changes64(handle.pointer) != totalBefore
        return (rows, changed ? Int(sqlite3_changes64(handle.pointer)) : 0)
    }

    private func bind(_ sql: SQL, to pointer: OpaquePointer, on handle: SQLiteHandle) throws {
        let placeholders = Int(sqlite3_bind_parameter_count(pointer))
        guard placeholders == sql.parameters.count else {
            throw StorageError.parameterCount(engine: .sqlite, sql: sql.text, placeholders: placeholders, values: sql.parameters.count)
        }
        let transient = passwright_sqlite_transient()
        for (offset, value) in sql.parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(pointer, index)
            case .integer(let integer):
                code = sqlite3_bind_int64(pointer, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(pointer, index, real)
            case .text(let text):
                let bytes = Array(text.utf8)
                // An empty buffer has no base address, which SQLite would bind as NULL.
                code = bytes.isEmpty
                    ? sqlite3_bind_text(pointer, index, "", 0, transient)
                    : bytes.withUnsafeBufferPointer {
                        $0.withMemoryRebound(to: CChar.self) {
                            sqlite3_bind_text64(pointer, index, $0.baseAddress, UInt64($0.count), transient, UInt8(SQLITE_UTF8))
                        }
                    }
            case .blob(let data):
                code = data.isEmpty
                    ? sqlite3_bind_zeroblob(pointer, index, 0)
                    : data.withUnsafeBytes { sqlite3_bind_blob64(pointer, index, $0.baseAddress, UInt64($0.count), transient) }
            }
            guard code == SQLITE_OK else { throw handle.error(sql: sql.text) }
        }
    }

    private static func value(of pointer: OpaquePointer, column: Int32) -> SQLValue {
        switch sqlite3_column_type(pointer, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(pointer, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(pointer, column))
        case SQLITE3_TEXT:
            let text = sqlite3_column_text(pointer, column)
            let count = Int(sqlite3_column_bytes(pointer, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(pointer, column))
            guard count > 0, let bytes = sqlite3_column_blob(pointer, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }
}
