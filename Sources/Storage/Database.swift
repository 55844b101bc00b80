import Foundation

/// A SQL database, SQLite or PostgreSQL, behind one API.
///
/// The Wallet store is written once against this protocol: statements use `?` placeholders and
/// bound ``SQLValue``s, schema changes are versioned ``Migration``s with a script per engine.
/// Get one from ``DatabaseConfiguration/open(poolSize:)``. Every method may be called from many tasks
/// at once; connections are pooled and blocking C calls never run on the cooperative thread pool.
public protocol Database: Sendable {
    /// The engine behind this database.
    var engine: DatabaseEngine { get }

    /// Runs one statement outside any transaction; returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: SQL) async throws -> Int

    /// Runs one statement outside any transaction; returns its rows.
    func query(_ sql: SQL) async throws -> [Row]

    /// Runs `body` in one transaction: it commits when `body` returns and rolls back when it throws
    /// (the body's error is rethrown unchanged). On SQLite the write lock is taken at the start
    /// (`BEGIN IMMEDIATE`), so a read-then-write body cannot fail half way with `SQLITE_BUSY`.
    /// Inside the body use only the ``Transaction``; calling the database again throws.
    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T

    /// Checks that the database answers (a `SELECT 1`), reconnecting a broken PostgreSQL connection.
    func ping() async throws

    /// Writes what a write-ahead log holds into the database file and empties the log, so the log's
    /// copies of pages as they were before a change (an erased holder's data) are gone. SQLite only;
    /// PostgreSQL keeps its log to itself, and a no-op there.
    func flushLog() async throws

    /// The last failure that outlasts a request (the database unavailable or full), recorded by every
    /// operation on this database; see ``probe()``.
    var health: StorageHealth { get }

    /// Closes every connection; later calls throw ``StorageError/closed(engine:)``.
    func close() async

    /// Listens for PostgreSQL `NOTIFY` on `channel` (lowercase letters, digits and `_`, not starting with a digit) until the task is
    /// cancelled, on a connection of its own outside the pool: how one instance hears that another
    /// wrote something for it (`SELECT pg_notify(channel, '')` in the writing transaction, delivered at
    /// its commit).
    ///
    /// `notified` is called once as soon as it listens — anything sent before was not heard, so the
    /// caller should look — and then once per batch of notifications that arrive together (PostgreSQL
    /// folds identical notifications of one transaction into one). Returns when the task is cancelled,
    /// having closed the connection; throws ``StorageError/connectionFailed(engine:location:message:)``
    /// when it cannot connect or the connection breaks, for the caller to retry after a pause. On
    /// SQLite, whose database is written by this process alone, throws ``StorageError/misuse(_:)``.
    func listen(on channel: String, notified: @escaping @Sendable () -> Void) async throws
}

extension Database {
    /// Applies each migration not yet recorded in `schema_migrations`, in version order, each in its
    /// own transaction with its row, so a failing migration leaves neither its changes nor its record.
    ///
    /// Safe to call at every start and from several instances at once: on PostgreSQL an advisory lock
    /// serializes migrators, on SQLite the write lock does. A recorded version whose name differs from
    /// the code's throws ``StorageError/migration(version:name:reason:)`` rather than being skipped.
    public func migrate(_ migrations: [Migration]) async throws {
        let ordered = migrations.sorted { $0.version < $1.version }
        for (previous, next) in zip(ordered, ordered.dropFirst()) where previous.version == next.version {
            throw StorageError.migration(version: next.version, name: next.name, reason: "version \(next.version) is also used by \"\(previous.name)\"")
        }
        for migration in ordered {
            try await transaction { transaction in
                try await Self.lockMigrations(transaction)
                if let recorded = try await transaction.query(SQL("SELECT name FROM schema_migrations WHERE version = ?", .integer(Int64(migration.version)))).first {
                    let name = try recorded.string("name")
                    guard name == migration.name else {
                        throw StorageError.migration(version: migration.version, name: migration.name, reason: "the database recorded this version as \"\(name)\"; never renumber or rename applied migrations")
                    }
                    return
                }
                do {
                    try await transaction.executeScript(migration.script(for: transaction.engine))
                } catch let error as StorageError {
                    throw StorageError.migration(version: migration.version, name: migration.name, reason: error.description)
                }
                try await transaction.execute(SQL(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    .integer(Int64(migration.version)), .text(migration.name), .text(Date.now.ISO8601Format())
                ))
            }
        }
    }

    /// Whether the database can take writes now, for a readiness check: `nil` when it can, else the
    /// failure that stops it.
    ///
    /// Pings, then — while the last failure was "full" — writes one row back unchanged (the newest
    /// `schema_migrations` row: a real write on both engines, which needs a page of room in the WAL or
    /// the table, and changes nothing); on SQLite only once the volume has a megabyte free again, since
    /// one page can fit where the next pass does not. Without the probe a server taken out of
    /// rotation for a full disk would never see the write that clears it.
    public func probe() async -> StorageFailure? {
        do {
            try await ping()
        } catch {
            return health.lastFailure ?? StorageFailure(kind: .unavailable, reason: "\(error)")
        }
        if health.lastFailure?.kind == .full, (self as? SQLiteDatabase)?.hasRoom ?? true {
            _ = try? await execute(SQL("UPDATE schema_migrations SET applied_at = applied_at WHERE version = (SELECT MAX(version) FROM schema_migrations)"))
        }
        return health.lastFailure
    }

    /// Serializes migrators and creates `schema_migrations` on first use.
    private static func lockMigrations(_ transaction: Transaction) async throws {
        if transaction.engine == .postgres {
            // Any constant works; this one spells "PassMigr" so it is recognisable in pg_locks.
            _ = try await transaction.query(SQL("SELECT pg_advisory_xact_lock(5792942353414498674)"))
        }
        try await transaction.execute(SQL(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        ))
    }
}
