/// Everything that can go wrong in `Storage`, each case saying where.
///
/// Messages carry the engine, the SQL text and the server's primary message, never parameter
/// values (they may be tokens) nor a PostgreSQL error's detail line (it quotes the offending values)
/// nor a password from the database URL.
public enum StorageError: Error, Sendable, CustomStringConvertible {
    /// The database URL or configuration cannot be used. `url` has its password removed.
    case invalidConfiguration(url: String, reason: String)
    /// Opening or re-establishing a connection failed. `location` has its password removed.
    case connectionFailed(engine: DatabaseEngine, location: String, message: String)
    /// The engine rejected a statement. `code` is the SQLSTATE on PostgreSQL and the extended result
    /// code on SQLite.
    case statementFailed(engine: DatabaseEngine, sql: String, code: String, message: String)
    /// A `UNIQUE` or primary-key constraint refused a row (SQLSTATE 23505, `SQLITE_CONSTRAINT_UNIQUE`
    /// or `SQLITE_CONSTRAINT_PRIMARYKEY`): callers turn it into "already exists".
    case uniqueViolation(engine: DatabaseEngine, sql: String, message: String)
    /// The statement has a different number of `?` placeholders than values.
    case parameterCount(engine: DatabaseEngine, sql: String, placeholders: Int, values: Int)
    /// A value cannot be sent to the engine as given (text containing NUL on PostgreSQL).
    case invalidParameter(engine: DatabaseEngine, sql: String, index: Int, reason: String)
    /// A result column is missing or does not hold the type asked for.
    case column(name: String, reason: String)
    /// A migration could not be applied, or the recorded history disagrees with the code.
    case migration(version: Int, name: String, reason: String)
    /// The API was used in a way that would deadlock or run outside the intended transaction.
    case misuse(String)
    /// The database was closed with ``Database/close()``.
    case closed(engine: DatabaseEngine)
    /// The database or the volume it writes to is full (`SQLITE_FULL`, an I/O error whose `errno` is
    /// `ENOSPC` or `EDQUOT`, PostgreSQL's `53100` disk_full): nothing of the statement was written, and
    /// nothing more will be until someone frees space. `location` names the database file or server
    /// (no password), so whoever reads the error knows which volume to look at.
    case full(engine: DatabaseEngine, location: String, code: String, message: String)
    /// A SQLite backup or restore could not be made: `file` is the file at fault.
    case copy(file: String, reason: String)
    /// A restore was refused: a server (or another process) has `database` open.
    case inUse(database: String)
    /// SQLite ended a transaction that several writes shared after an error in one of them (a full
    /// disk, an I/O error): none of them was written, and each may be tried again. `cause` is that
    /// error's kind, so a full disk reads as one for every write it undid.
    case groupRolledBack(cause: Kind)

    /// What a failure means for the caller, whatever the engine: the HTTP layer and readiness act on
    /// this, never on codes.
    public enum Kind: Sendable, Equatable {
        /// The database does not answer now (connection refused or lost, the server shutting down or
        /// starting up, out of connections or memory): the same request later may well succeed.
        case unavailable
        /// The database or its volume is full: nothing is written until space is freed.
        case full
        /// Anything else: a bug, a constraint, a corrupt file; trying again does not help by itself.
        case other
    }

    /// The kind of this failure (see ``Kind``), from the case and, for a statement, its code:
    /// PostgreSQL class `08` (connection exception), `57P01`–`57P03` (shutting down, crashed, cannot
    /// connect now) and `53000`/`53200`/`53300` (insufficient resources, out of memory, too many
    /// connections) are `unavailable`.
    public var kind: Kind {
        switch self {
        case .connectionFailed, .closed:
            return .unavailable
        case .full:
            return .full
        case .groupRolledBack(let cause):
            return cause
        case .statementFailed(.postgres, _, let code, _):
            if code.hasPrefix("08") || ["57P01", "57P02", "57P03", "53000", "53200", "53300"].contains(code) {
                return .unavailable
            }
            return .other
        default:
            return .other
        }
    }

    /// Whether a row was refused because it duplicates a unique key, on either engine.
    public var isUniqueViolation: Bool {
        if case .uniqueViolation = self { return true }
        return false
    }

    /// Whether a row was refused because a row it refers to does not exist (a foreign key), on either
    /// engine: SQLSTATE 23503, `SQLITE_CONSTRAINT_FOREIGNKEY` (787).
    public var isForeignKeyViolation: Bool {
        guard case .statementFailed(let engine, _, let code, _) = self else { return false }
        return code == (engine == .postgres ? "23503" : "787")
    }

    /// The PostgreSQL SQLSTATE (or SQLite result code, `19` for any constraint) when the engine
    /// rejected a statement.
    public var code: String? {
        switch self {
        case .statementFailed(_, _, let code, _): code
        case .uniqueViolation(.postgres, _, _): "23505"
        case .uniqueViolation(.sqlite, _, _): "19"
        case .full(_, _, let code, _): code
        default: nil
        }
    }

    /// A message a user can act on, naming the engine and the SQL.
    public var description: String {
        switch self {
        case .invalidConfiguration(let url, let reason):
            "Invalid database configuration \(url): \(reason)"
        case .connectionFailed(let engine, let location, let message):
            "\(engine): cannot connect to \(location): \(message)"
        case .statementFailed(let engine, let sql, let code, let message):
            "\(engine) error \(code): \(message) in SQL: \(sql)"
        case .uniqueViolation(let engine, let sql, let message):
            "\(engine) unique violation: \(message) in SQL: \(sql)"
        case .parameterCount(let engine, let sql, let placeholders, let values):
            "\(engine): the SQL has \(placeholders) placeholder(s) but \(values) value(s) were given: \(sql)"
        case .invalidParameter(let engine, let sql, let index, let reason):
            "\(engine): parameter \(index) cannot be sent: \(reason) in SQL: \(sql)"
        case .column(let name, let reason):
            "Column \"\(name)\": \(reason)"
        case .migration(let version, let name, let reason):
            "Migration \(version) (\(name)): \(reason)"
        case .misuse(let message):
            "Storage misuse: \(message)"
        case .closed(let engine):
            "\(engine): the database is closed"
        case .copy(let file, let reason):
            "\(file): \(reason)"
        case .inUse(let database):
            "\(database) is open in a running server (it holds \(database).lock): stop every server using it, then restore"
        case .full(let engine, let location, let code, let message):
            "\(engine): the database \(location) or the volume it is on is full (error \(code): \(message)); nothing was written. Free space on that volume (or raise its quota), and writes resume by themselves"
        case .groupRolledBack:
            "sqlite: the transaction this write shared with others was rolled back after an error in one of them; nothing was written, try again"
        }
    }
}
