internal import CPostgres

/// One libpq connection of the pool, isolated on a dispatch queue of its own (its blocking calls
/// stay off Swift's cooperative threads); the calls themselves are its ``PostgresSession``'s.
actor PostgresConnection: TransactionalConnection {
    private let executor = DispatchQueueExecutor(label: "passwright.storage.postgres")
    private let session: PostgresSession

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    nonisolated var taskExecutor: any TaskExecutor { executor }

    private init(location: String) {
        session = PostgresSession(location: location)
    }

    /// Connects to `url` on the connection's own queue; `location` is the URL without its password.
    static func connect(url: String, location: String) async throws -> PostgresConnection {
        let connection = PostgresConnection(location: location)
        try await connection.open(url: url)
        return connection
    }

    private func open(url: String) throws {
        try session.open(url: url)
    }

    func execute(_ sql: SQL) throws -> Int { try session.execute(sql) }
    func query(_ sql: SQL) throws -> [Row] { try session.query(sql) }
    func executeLater(_ sql: SQL) throws { try session.executeLater(sql) }
    func executeScript(_ script: String) throws { try session.executeScript(script) }
    func begin() throws { try session.begin() }
    func commit() throws { try session.commit() }
    func rollback() throws { try session.rollback() }
    func close() { session.close() }
}
