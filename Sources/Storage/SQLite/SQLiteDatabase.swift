import Foundation
import Locking

/// SQLite behind ``Database``: one writer connection that serializes writes and transactions, sharing
/// one commit among the writes queued behind each other, plus read-only connections that serve plain
/// queries beside it thanks to WAL, on the calling thread.
final class SQLiteDatabase: Database {
    let engine = DatabaseEngine.sqlite
    let health = StorageHealth()
    let writer: ConnectionPool<SQLiteConnection>
    /// The writer's queue, whichever connection the pool holds: known before a write leases the
    /// writer, so the write waits for it there (see ``transaction(_:)``).
    private let writerExecutor: DispatchQueueExecutor
    private let readers: SQLiteReaders?
    /// The database file, `nil` in memory.
    private let file: String?
    /// How long a connection of its own (``flushLog()``) waits for the writer.
    private let busyTimeoutMilliseconds: Int
    /// Held shared while open, so `restore` refuses to replace the file under this process.
    private let lock: Locked<SQLiteFileLock?>
    /// The free space below which a volume that was full still counts as full (see ``hasRoom``).
    static let minimumFreeBytes = 1 << 20

    private init(writer: ConnectionPool<SQLiteConnection>, writerExecutor: DispatchQueueExecutor, readers: SQLiteReaders?, file: String?,
                 lock: SQLiteFileLock?, busyTimeoutMilliseconds: Int) {
        self.lock = Locked(lock)
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.writer = writer
        self.writerExecutor = writerExecutor
        self.readers = readers
        self.file = file
    }

    /// Whether the file's volume has at least ``minimumFreeBytes`` free. After a write found the volume
    /// full, a one-page probe can still fit in the last few free blocks while the next pass cannot;
    /// readiness waits for real room instead of flapping. `true` in memory or when the volume does not say.
    var hasRoom: Bool {
        guard let file else { return true }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder))?[.systemFreeSize] as? NSNumber else { return true }
        return free.int64Value >= Int64(Self.minimumFreeBytes)
    }

    /// Opens the writer now (creating the file and its folder) so a bad path fails here.
    static func open(_ configuration: DatabaseConfiguration, poolSize: Int) async throws -> SQLiteDatabase {
        let timeout = configuration.busyTimeoutMilliseconds
        let path: String
        switch configuration.location {
        case .sqliteMemory:
            path = ":memory:"
        case .sqliteFile(let file):
            path = file
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw StorageError.connectionFailed(engine: .sqlite, location: configuration.description, message: "cannot create the folder \(folder.path): \(error.localizedDescription)")
            }
        case .postgres:
            preconditionFailure("SQLiteDatabase opened with a PostgreSQL configuration")
        }
        var lock: SQLiteFileLock?
        if path != ":memory:" {
            guard let shared = try SQLiteFileLock.take(for: path, exclusive: false) else {
                throw StorageError.connectionFailed(engine: .sqlite, location: configuration.description,
                                                   message: "a restore is replacing the file (it holds \(SQLiteFileLock.path(for: path))); try again when it is done")
            }
            lock = shared
        }
        let writerExecutor = DispatchQueueExecutor(label: "passwright.storage.sqlite")
        let writer = ConnectionPool(capacity: 1, engine: .sqlite) {
            try await SQLiteConnection.open(path: path, busyTimeoutMilliseconds: timeout, on: writerExecutor)
        }
        try await writer.warmUp()
        // Each in-memory connection is a separate database, so memory gets the writer only.
        let readers = path == ":memory:" || poolSize < 2 ? nil
            : SQLiteReaders(path: path, capacity: poolSize - 1, busyTimeoutMilliseconds: timeout)
        return SQLiteDatabase(writer: writer, writerExecutor: writerExecutor, readers: readers, file: path == ":memory:" ? nil : path, lock: lock, busyTimeoutMilliseconds: timeout)
    }

    /// A write outside a transaction joins the writer's shared transaction like any other.
    func execute(_ sql: SQL) async throws -> Int {
        try await transaction { try await $0.execute(sql) }
    }

    func query(_ sql: SQL) async throws -> [Row] {
        try TransactionScope.checkOutside(ObjectIdentifier(self))
        if let readers {
            let rows: [Row]?
            do {
                rows = try readers.withSession { try $0.queryIfReadOnly(sql) }
            } catch {
                health.record(error)
                throw error
            }
            if let rows {
                health.succeeded(writing: false)
                return rows
            }
        }
        return try await transaction { try await $0.query(sql) }
    }

    /// Runs `body` as one write of the writer's shared transaction (``SQLiteCommitGroup``): in a
    /// savepoint of its own, answered only once the transaction has committed.
    ///
    /// The write waits for the writer on the writer's own queue: the write before it hands the
    /// writer on from that queue, and the next one goes on there at once. Leasing first and moving to
    /// the queue after put a pool thread's wake-up and a hop back between every two writes, and the
    /// writes queued for the writer are a chain (register on SQLite was bound by it, not by CPU).
    func transaction<T: Sendable>(_ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        try TransactionScope.checkOutside(ObjectIdentifier(self))
        return try await health.observe(writing: true) {
            try await withTaskExecutorPreference(writerExecutor) {
                let connection = try await writer.lease()
                return try await write(on: connection, body)
            }
        }
    }

    /// One write on the leased writer, which it hands on with the transaction open or commits.
    private func write<T: Sendable>(on connection: SQLiteConnection, _ body: @Sendable (Transaction) async throws -> T) async throws -> T {
        let outcome: SQLiteCommitOutcome
        do {
            outcome = try await connection.join()
        } catch {
            await writer.release(connection, reusable: true)
            throw error
        }
        let transaction = Transaction(engine: .sqlite, connection: connection)
        var result: Result<T, any Error>
        do {
            result = .success(try await TransactionScope.$databases.withValue(TransactionScope.databases.union([ObjectIdentifier(self)])) {
                try await body(transaction)
            })
        } catch {
            result = .failure(error)
        }
        transaction.end()
        let bodyError: (any Error)? = if case .failure(let error) = result { error } else { nil }
        do {
            try await connection.leave(after: bodyError)
        } catch where bodyError == nil {
            result = .failure(error)
        } catch {}
        if await connection.mayHandOn(), await writer.handOff(connection) {
            // The next write carries the transaction on; the last one commits it.
        } else {
            await connection.commitGroup()
            await writer.release(connection, reusable: true)
        }
        let value = try result.get()
        try await outcome.wait()
        transaction.committed()
        return value
    }
    func ping() async throws {
        _ = try await query(SQL("SELECT 1"))
    }

    /// A `TRUNCATE` checkpoint on a connection of its own, on a thread of its own: the writer's
    /// connection may hold its shared transaction open, and the checkpoint waits (up to the busy
    /// timeout) for it to commit, which needs the writer's queue free.
    func flushLog() async throws {
        guard let file else { return }
        let timeout = busyTimeoutMilliseconds
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                do {
                    try SQLiteHandle.checkpoint(path: file, busyTimeoutMilliseconds: timeout)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.name = "passwright-sqlite-checkpoint"
            thread.start()
        }
    }

    func listen(on channel: String, notified: @escaping @Sendable () -> Void) async throws {
        throw StorageError.misuse("SQLite has no notifications; one process writes the database and signals itself")
    }

    func close() async {
        await writer.close()
        readers?.close()
        lock.withLock { $0 = nil }
    }
}
