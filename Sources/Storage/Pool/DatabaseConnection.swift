/// One engine connection as the pool and ``Transaction`` see it.
///
/// Conformers are actors on a ``DispatchQueueExecutor``: isolation gives one caller at a time, and the
/// executor keeps the blocking C calls off the cooperative pool.
protocol DatabaseConnection: Actor {
    /// The connection's queue, preferred by a transaction's body (see ``DispatchQueueExecutor``).
    nonisolated var taskExecutor: any TaskExecutor { get }
    /// Runs one statement; returns the number of rows it changed.
    func execute(_ sql: SQL) throws -> Int
    /// Runs one statement; returns its rows.
    func query(_ sql: SQL) throws -> [Row]
    /// Runs one statement whose result nobody reads, now or with the next one (``Transaction/executeLater(_:)``).
    func executeLater(_ sql: SQL) throws
    /// Runs a script of several statements without parameters (migrations).
    func executeScript(_ script: String) throws
    /// Releases the engine resources; later calls fail with ``StorageError/closed(engine:)``.
    func close()
}

/// A connection whose transactions ``Transaction/run(in:for:engine:_:)`` opens and ends one at a
/// time (PostgreSQL's; SQLite's writer shares its transaction between writes, ``SQLiteCommitGroup``).
protocol TransactionalConnection: DatabaseConnection {
    /// Starts a transaction.
    func begin() throws
    /// Commits; throws if the engine rolled back instead.
    func commit() throws
    /// Rolls back the open transaction.
    func rollback() throws
}
