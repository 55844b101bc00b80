import Storage

/// PostgreSQL's advisory locks seen from a test: one held from a connection of the test's own, and
/// the transactions that wait for it, told apart by what PostgreSQL's lock table says they hold.
/// Nothing here sleeps to let a writer get somewhere: the lock stops it there.
public enum AdvisoryLocks {
    /// Runs `body` while a transaction on `database` holds the transaction-scoped advisory lock
    /// `key`, and releases it (ends the transaction) when `body` returns or throws.
    public static func holding<T: Sendable>(_ key: Int64, on database: any Database, while body: () async throws -> T) async throws -> T {
        let held = Gate(), release = Gate()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Opened however the transaction ends: a failure to lock fails the test, it does not hang it.
                defer { held.open() }
                try await database.transaction { transaction in
                    _ = try await transaction.query(SQL("SELECT pg_advisory_xact_lock(?::bigint)", .integer(key)))
                    held.open()
                    await release.wait()
                }
            }
            await held.wait()
            let result: T
            do { result = try await body() } catch {
                release.open()
                throw error
            }
            release.open()
            try await group.waitForAll()
            return result
        }
    }

    /// Waits until exactly `count` transactions wait for an advisory lock while holding a row lock
    /// on each table of `written` (they inserted or updated rows there) and no lock at all on any of
    /// `untouched`; throws after `timeout`, naming how many did. The table names resolve in
    /// `database`'s search path, so the transactions of other tests' schemas, waiting for the same
    /// lock, are not counted.
    ///
    /// A transaction that has written nothing yet is told apart by its connection instead: `pid`
    /// (PostgreSQL's `pg_backend_pid()` of a connection the test opened for it).
    ///
    /// `waitingIn`, when given, is text of the statement each must be waiting in. Statements sent
    /// behind it in the same pipeline have not run, but they are prepared, and preparing one already
    /// locks its tables as running it does: for them, `untouched` cannot tell, the statement can.
    public static func waitForWaiters(
        _ count: Int, written: [String], untouched: [String], waitingIn: String? = nil, pid: Int64? = nil, on database: any Database,
        timeout: Duration = .seconds(30)
    ) async throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let waiting = try await waiters(written: written, untouched: untouched, waitingIn: waitingIn, pid: pid, on: database)
            if waiting == count { return }
            guard ContinuousClock.now < deadline else {
                throw FixtureError(
                    "\(count) transactions waiting for an advisory lock having written \(written) and touched none of \(untouched)\(waitingIn.map { " in a statement with \($0)" } ?? ""): \(waiting) after \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The server process of `database`'s connection: open it with one connection, so every
    /// statement of a store over it runs there.
    public static func backend(of database: any Database) async throws -> Int64 {
        try await database.query(SQL("SELECT CAST(pg_backend_pid() AS BIGINT) AS pid"))[0].int64("pid")
    }

    /// How many transactions wait as ``waitForWaiters(_:written:untouched:waitingIn:pid:on:timeout:)`` describes, now.
    public static func waiters(
        written: [String], untouched: [String], waitingIn: String? = nil, pid: Int64? = nil, on database: any Database
    ) async throws -> Int {
        var conditions = ["waits.locktype = 'advisory'", "NOT waits.granted"]
        var parameters: [SQLValue] = []
        if let waitingIn {
            conditions.append("EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = waits.pid AND strpos(query, ?) > 0)")
            parameters.append(.text(waitingIn))
        }
        if let pid {
            conditions.append("waits.pid = CAST(? AS INTEGER)")
            parameters.append(.integer(pid))
        }
        for table in written {
            conditions.append("EXISTS (SELECT 1 FROM pg_locks WHERE pid = waits.pid AND granted AND relation = to_regclass(?) AND mode = 'RowExclusiveLock')")
            parameters.append(.text(table))
        }
        for table in untouched {
            conditions.append("NOT EXISTS (SELECT 1 FROM pg_locks WHERE pid = waits.pid AND relation = to_regclass(?))")
            parameters.append(.text(table))
        }
        // Only the fixed fragments above are joined; the table names are parameters.
        let rows = try await database.query(SQL(
            unsafeText: "SELECT COUNT(*) AS waiting FROM pg_locks AS waits WHERE " + conditions.joined(separator: " AND "), parameters: parameters))
        return try rows[0].int("waiting")
    }
}
