import Foundation

/// The SQLite writer connection, isolated on a dispatch queue of its own: writes can wait on locks
/// (`busy_timeout`, another process) and on the disk, which must not hold a thread of the Swift
/// cooperative pool (two threads on a 2-core box).
actor SQLiteConnection: DatabaseConnection {
    private let executor = DispatchQueueExecutor(label: "passwright.storage.sqlite")
    private var session: SQLiteSession?

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    nonisolated var taskExecutor: any TaskExecutor { executor }

    /// Opens `path` (`:memory:` for an in-memory database) as the writer, on the connection's queue.
    static func open(path: String, busyTimeoutMilliseconds: Int) async throws -> SQLiteConnection {
        let connection = SQLiteConnection()
        try await connection.open(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        return connection
    }

    private func open(path: String, busyTimeoutMilliseconds: Int) throws {
        session = try SQLiteSession(path: path, role: .writer, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    func execute(_ sql: SQL) throws -> Int { try opened().execute(sql) }
    func query(_ sql: SQL) throws -> [Row] { try opened().query(sql) }
    func executeScript(_ script: String) throws { try opened().executeScript(script) }
    func begin() throws { try opened().begin() }
    func commit() throws { try opened().commit() }
    func rollback() throws { try opened().rollback() }

    func close() {
        session?.close()
        session = nil
    }

    private func opened() throws -> SQLiteSession {
        guard let session else { throw StorageError.closed(engine: .sqlite) }
        return session
    }
}
