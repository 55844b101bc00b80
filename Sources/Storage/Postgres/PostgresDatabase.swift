/// PostgreSQL behind ``Database``: a bounded pool of libpq connections.
final class PostgresDatabase: Database {
    let engine = DatabaseEngine.postgres
    private let pool: ConnectionPool<PostgresConnection>

    private init(pool: ConnectionPool<PostgresConnection>) {
        self.pool = pool
    }

    /// Opens the first connection now so a wrong URL or a server that is down fails here.
    static func open(url: String, description: String, poolSize: Int) async throws -> PostgresDatabase {
        let pool = ConnectionPool(capacity: poolSize, engine: .postgres) {
            try await PostgresConnection.connect(url: url, location: description)
        }
        try await pool.warmUp()
        return PostgresDatabase(pool: pool)
    }

    func execute(_ sql: SQL) async throws -> Int {
        try TransactionScope.checkOutside(ObjectIdentifier(self))
        return try await pool.withConnection { try await $0.execute(sql) }
    }

    func query(_ sql: SQL) async throws -> [Row] {
        try TransactionScope.checkOutside(ObjectIdentifier(self))
        return try await pool.withConnection { try await $0.query(sql) }
    }

    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        try await Transaction.run(in: pool, for: ObjectIdentifier(self), engine: .postgres, body)
    }

    func ping() async throws {
        _ = try await query(SQL("SELECT 1"))
    }

    func close() async {
        await pool.close()
    }
}
