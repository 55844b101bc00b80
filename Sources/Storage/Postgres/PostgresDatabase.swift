import Foundation
import Locking

/// PostgreSQL behind ``Database``: a bounded pool of libpq connections.
final class PostgresDatabase: Database {
    let engine = DatabaseEngine.postgres
    let health = StorageHealth()
    private let pool: ConnectionPool<PostgresConnection>
    /// Reads on a daemon thread that may block, without a thread switch (one per daemon thread at most).
    private let inline: PostgresInlineSessions
    /// Where the pool connects, for the listener's connection of its own.
    private let url: String
    private let location: String

    private init(pool: ConnectionPool<PostgresConnection>, url: String, location: String) {
        self.pool = pool
        self.url = url
        self.location = location
        inline = PostgresInlineSessions(url: url, location: location, capacity: Self.inlineSessions)
    }

    /// At most one per daemon thread: `passwright serve` runs two per core on PostgreSQL.
    static let inlineSessions = 2 * ProcessInfo.processInfo.activeProcessorCount

    /// Opens the first connection now so a wrong URL or a server that is down fails here.
    static func open(url: String, description: String, poolSize: Int) async throws -> PostgresDatabase {
        let pool = ConnectionPool(capacity: poolSize, engine: .postgres) {
            try await PostgresConnection.connect(url: url, location: description)
        }
        try await pool.warmUp()
        return PostgresDatabase(pool: pool, url: url, location: description)
    }

    func execute(_ sql: SQL) async throws -> Int {
        try TransactionScope.checkOutside(ObjectIdentifier(self))
        return try await health.observe(writing: true) { try await pool.withConnection { try await $0.execute(sql) } }
    }

    func query(_ sql: SQL) async throws -> [Row] {
        try TransactionScope.checkOutside(ObjectIdentifier(self))
        // A statement that is not a `SELECT` writes (a registration is one statement), and its
        // success proves there is room to write, as an `execute`'s does.
        let reads = sql.isRead
        return try await health.observe(writing: !reads) {
            // A read only: a write's commit may wait for the disk, which a daemon thread must not.
            if reads, BlockingPermit.isGranted, let rows = try inline.withSession({ try $0.query(sql) }) { return rows }
            return try await pool.withConnection { try await $0.query(sql) }
        }
    }

    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        try await health.observe(writing: true) {
            try await Transaction.run(in: pool, for: ObjectIdentifier(self), engine: .postgres, body)
        }
    }

    func ping() async throws {
        _ = try await query(SQL("SELECT 1"))
    }

    func flushLog() async throws {}

    func listen(on channel: String, notified: @escaping @Sendable () -> Void) async throws {
        try await PostgresListener.listen(url: url, location: location, channel: channel, notified: notified)
    }

    func close() async {
        inline.close()
        await pool.close()
    }
}
