import Locking
import Synchronization

/// The handle a ``Database/transaction(_:)`` body runs its statements through.
///
/// Every statement goes to the one connection that holds the transaction, so they commit or roll
/// back together. The handle stops working when the body returns: keeping it for later fails with
/// ``StorageError/misuse(_:)`` instead of running outside the transaction.
public struct Transaction: Sendable {
    /// The engine, for the rare statement that must differ (`FOR UPDATE SKIP LOCKED` is PostgreSQL's).
    public let engine: DatabaseEngine
    private let connection: any DatabaseConnection
    private let state = State()

    /// A handle for a body about to run on `connection`; ``end()`` it when the body returns.
    init(engine: DatabaseEngine, connection: any DatabaseConnection) {
        self.engine = engine
        self.connection = connection
    }

    /// Stops the handle: a copy kept past the body fails instead of running outside the transaction.
    func end() {
        state.end()
    }

    /// Runs `hook` once the transaction has committed (never when it rolls back): how a write tells a
    /// worker in this process that there is work, without the worker finding it uncommitted.
    public func afterCommit(_ hook: @escaping @Sendable () -> Void) {
        state.hooks.withLock { $0.append(hook) }
    }

    /// Runs the hooks registered by the body; the engine calls it once the commit is durable.
    func committed() {
        for hook in state.hooks.withLock({ hooks in defer { hooks = [] }; return hooks }) { hook() }
    }

    /// Runs one statement inside the transaction; returns the number of rows it changed.
    @discardableResult
    public func execute(_ sql: SQL) async throws -> Int {
        try state.checkOpen()
        return try await connection.execute(sql)
    }

    /// Runs one statement inside the transaction; returns its rows.
    public func query(_ sql: SQL) async throws -> [Row] {
        try state.checkOpen()
        return try await connection.query(sql)
    }

    /// Runs one statement whose result the body does not need: on PostgreSQL it travels with the
    /// transaction's next statement or its `COMMIT`, in the same round trip (libpq's pipeline mode),
    /// so a write's audit row or counters cost no wait of their own; on SQLite, in process, it runs
    /// now. Its failure fails that statement or the commit instead, and so the whole transaction:
    /// only for statements no caller tells apart by their error (no unique key a caller catches).
    public func executeLater(_ sql: SQL) async throws {
        try state.checkOpen()
        try await connection.executeLater(sql)
    }

    /// Runs a multi-statement script inside the transaction (migrations).
    func executeScript(_ script: String) async throws {
        try state.checkOpen()
        try await connection.executeScript(script)
    }

    /// Runs `body` in a transaction on a connection leased from `pool`: commit when it returns,
    /// roll back when it throws, and rethrow the body's own error unchanged.
    static func run<C: TransactionalConnection, T: Sendable>(
        in pool: ConnectionPool<C>,
        for database: ObjectIdentifier,
        engine: DatabaseEngine,
        _ body: @Sendable (Transaction) async throws -> T
    ) async throws -> T {
        try TransactionScope.checkOutside(database)
        let connection = try await pool.lease()
        return try await withTaskExecutorPreference(connection.taskExecutor) {
            try await run(on: connection, from: pool, for: database, engine: engine, body)
        }
    }

    /// The transaction on a leased connection, whose queue runs it from `BEGIN` to the release.
    private static func run<C: TransactionalConnection, T: Sendable>(
        on connection: C,
        from pool: ConnectionPool<C>,
        for database: ObjectIdentifier,
        engine: DatabaseEngine,
        _ body: @Sendable (Transaction) async throws -> T
    ) async throws -> T {
        do {
            try await connection.begin()
        } catch {
            await pool.release(connection, reusable: true)
            throw error
        }
        let transaction = Transaction(engine: engine, connection: connection)
        let value: T
        do {
            value = try await TransactionScope.$databases.withValue(TransactionScope.databases.union([database])) {
                try await body(transaction)
            }
        } catch {
            transaction.end()
            await rollback(connection, in: pool)
            throw error
        }
        transaction.end()
        do {
            try await connection.commit()
        } catch {
            await rollback(connection, in: pool)
            throw error
        }
        await pool.release(connection, reusable: true)
        transaction.committed()
        return value
    }

    /// Rolls back and returns the connection; a connection that cannot roll back is not reused.
    private static func rollback<C: TransactionalConnection>(_ connection: C, in pool: ConnectionPool<C>) async {
        do {
            try await connection.rollback()
            await pool.release(connection, reusable: true)
        } catch {
            await pool.release(connection, reusable: false)
        }
    }

    /// Whether the body is still running; shared by copies of the handle.
    private final class State: Sendable {
        private let isOpen = Atomic(true)
        /// ``afterCommit(_:)``'s hooks, run by ``committed()``.
        let hooks = Locked<[@Sendable () -> Void]>([])

        func end() {
            isOpen.store(false, ordering: .releasing)
        }

        func checkOpen() throws {
            guard isOpen.load(ordering: .acquiring) else {
                throw StorageError.misuse("a Transaction was used after its body returned; run statements inside the body")
            }
        }
    }
}

/// The databases whose transaction body the current task is running in.
///
/// Calling the database itself from inside its own transaction body would wait for the connection
/// the transaction holds (SQLite has one writer) or run outside the transaction (PostgreSQL); both
/// are bugs, caught here with a clear error instead of a hang.
enum TransactionScope {
    @TaskLocal static var databases: Set<ObjectIdentifier> = []

    static func checkOutside(_ database: ObjectIdentifier) throws {
        if databases.contains(database) {
            throw StorageError.misuse("the database was called inside its own transaction body; use the Transaction passed to the body (nested transactions are not supported)")
        }
    }
}
