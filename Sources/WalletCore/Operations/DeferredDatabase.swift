import Locking
import Storage

/// The database before ``WalletServices/start()`` opened it: the services are made over this at
/// construction, which must neither wait for the database nor migrate it (start-up retries for up to
/// a minute), and it forwards to the real database once start-up has opened one. A call before that
/// (or after ``close()``) throws ``StorageError/misuse(_:)``: a caller that did not run the service.
final class DeferredDatabase: Database {
    let engine: DatabaseEngine
    private let opened = Locked<(any Database)?>(nil)
    /// The health reported before a database is opened: nothing has failed on it yet.
    private let unopenedHealth = StorageHealth()

    init(engine: DatabaseEngine) {
        self.engine = engine
    }

    /// Hands over the database start-up opened.
    func open(_ database: any Database) {
        opened.withLock { $0 = database }
    }

    private func database() throws -> any Database {
        guard let database = opened.withLock({ $0 }) else {
            throw StorageError.misuse("the database is not open: run the service first")
        }
        return database
    }

    func execute(_ sql: SQL) async throws -> Int { try await database().execute(sql) }
    func query(_ sql: SQL) async throws -> [Row] { try await database().query(sql) }
    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        try await database().transaction(body)
    }
    func ping() async throws { try await database().ping() }
    func flushLog() async throws { try await database().flushLog() }
    var health: StorageHealth { opened.withLock { $0 }?.health ?? unopenedHealth }

    /// ``Database/probe()`` of the opened database, whose engine decides how a full volume is probed;
    /// unavailable before start-up opened one.
    func probeOpened() async -> StorageFailure? {
        guard let database = opened.withLock({ $0 }) else { return StorageFailure(kind: .unavailable, reason: "the database is not open yet") }
        return await database.probe()
    }
    func listen(on channel: String, notified: @escaping @Sendable () -> Void) async throws {
        try await database().listen(on: channel, notified: notified)
    }

    /// Closes the opened database, if any; later calls throw.
    func close() async {
        let database = opened.withLock { database in
            defer { database = nil }
            return database
        }
        await database?.close()
    }
}
