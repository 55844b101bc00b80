import Foundation

/// The SQLite writer connection, isolated on the writer's dispatch queue (the database's, so a write
/// can wait there before it has the connection): writes can wait on locks (`busy_timeout`, another
/// process) and on the disk, which must not hold a thread of the Swift cooperative pool (two threads
/// on a 2-core box).
actor SQLiteConnection: DatabaseConnection {
    private let executor: DispatchQueueExecutor
    private var session: SQLiteSession?
    /// The transaction the queued writes share, while one is open.
    private var group: SQLiteCommitGroup?

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    nonisolated var taskExecutor: any TaskExecutor { executor }

    private init(executor: DispatchQueueExecutor) {
        self.executor = executor
    }

    /// Opens `path` (`:memory:` for an in-memory database) as the writer, on `executor`'s queue.
    static func open(path: String, busyTimeoutMilliseconds: Int, on executor: DispatchQueueExecutor) async throws -> SQLiteConnection {
        let connection = SQLiteConnection(executor: executor)
        try await connection.open(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        return connection
    }

    private func open(path: String, busyTimeoutMilliseconds: Int) throws {
        session = try SQLiteSession(path: path, role: .writer, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    func execute(_ sql: SQL) throws -> Int { try opened().execute(sql) }
    func query(_ sql: SQL) throws -> [Row] { try opened().query(sql) }
    /// In process there is no round trip to save: it runs now.
    func executeLater(_ sql: SQL) throws { _ = try opened().execute(sql) }
    func executeScript(_ script: String) throws { try opened().executeScript(script) }

    /// Joins the shared transaction, opening it (`BEGIN IMMEDIATE`) if none is open, and starts the
    /// write's savepoint in it; returns the outcome to wait on once the write's body has run.
    func join() throws -> SQLiteCommitOutcome {
        let session = try opened()
        var group = self.group ?? SQLiteCommitGroup()
        if self.group == nil { try session.run(.begin) }
        do {
            try session.run(.savepoint)
        } catch {
            if group.members == 0 { try? session.run(.rollback) }
            self.group = group.members == 0 ? nil : group
            throw error
        }
        group.join()
        self.group = group
        return group.outcome
    }

    /// Ends the write's savepoint: kept when its body returned (`bodyError` is `nil`), undone when it
    /// threw. Throws when a kept savepoint could not be released (then it is undone). When SQLite
    /// itself has ended the transaction after an error, every write of the group fails with
    /// ``StorageError/groupRolledBack(cause:)`` carrying that error's kind (a full disk stays one).
    func leave(after bodyError: (any Error)?) throws {
        let session = try opened()
        var failure: (any Error)?
        if bodyError == nil {
            do { try session.run(.releaseSavepoint) } catch { failure = error }
        }
        if (bodyError != nil || failure != nil) && session.isInTransaction {
            do { try session.run(.rollbackToSavepoint) } catch { abandonGroup(session) }
        }
        if !session.isInTransaction, let group {
            self.group = nil
            let cause = (failure ?? bodyError) as? StorageError
            group.outcome.settle(.failure(StorageError.groupRolledBack(cause: cause?.kind ?? .other)))
        }
        if let failure { throw failure }
    }

    /// Whether a write waiting for the writer may join the open transaction; if so, the caller
    /// hands it on (the group's wait starts with its first hand-off).
    func mayHandOn() -> Bool {
        guard var group, group.mayGrow else { return false }
        group.handedOn()
        self.group = group
        return true
    }

    /// Commits the shared transaction and settles its outcome; a failed commit is rolled back and
    /// fails every write of the group.
    func commitGroup() {
        guard let group, let session else { return }
        self.group = nil
        do {
            try session.run(.commit)
            group.outcome.settle(.success(()))
        } catch {
            if session.isInTransaction { try? session.run(.rollback) }
            group.outcome.settle(.failure(error))
        }
    }

    func close() {
        if let group {
            self.group = nil
            group.outcome.settle(.failure(StorageError.closed(engine: .sqlite)))
        }
        session?.close()
        session = nil
    }

    /// Rolls the whole transaction back; its writes' outcome is settled by the caller's check.
    private func abandonGroup(_ session: SQLiteSession) {
        if session.isInTransaction { try? session.run(.rollback) }
    }

    private func opened() throws -> SQLiteSession {
        guard let session else { throw StorageError.closed(engine: .sqlite) }
        return session
    }
}
