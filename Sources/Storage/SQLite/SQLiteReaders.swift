import Locking

/// The read-only connections beside the writer, used on the calling thread.
///
/// A read under WAL never waits for the writer, and the statements on a hot path read a few index
/// entries, so it takes microseconds: less than the hops to a connection's own queue and back, which
/// were a third of the server's CPU for a read-only request. A thread takes an idle session, runs one
/// statement and gives it back, never suspending in between, so there are never more sessions in use
/// than threads reading; up to `capacity` are kept open between reads.
final class SQLiteReaders: Sendable {
    private struct Idle: ~Copyable {
        var sessions: [SQLiteSession] = []
        var isClosed = false
    }

    private let path: String
    private let busyTimeoutMilliseconds: Int
    private let capacity: Int
    private let idle = Locked(Idle())

    init(path: String, capacity: Int, busyTimeoutMilliseconds: Int) {
        self.path = path
        self.capacity = capacity
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// Runs `body` with a session of its own, opened if none is idle.
    func withSession<T>(_ body: (SQLiteSession) throws -> T) throws -> T {
        let session = try checkOut()
        defer { checkIn(session) }
        return try body(session)
    }

    /// Closes the idle sessions; sessions in use close when given back, and later reads fail.
    func close() {
        let sessions = idle.withLock { idle in
            idle.isClosed = true
            defer { idle.sessions = [] }
            return idle.sessions
        }
        for session in sessions { session.close() }
    }

    private func checkOut() throws -> SQLiteSession {
        let idleSession = try idle.withLock { (idle) throws(StorageError) -> SQLiteSession? in
            guard !idle.isClosed else { throw .closed(engine: .sqlite) }
            return idle.sessions.popLast()
        }
        return try idleSession ?? SQLiteSession(path: path, role: .reader, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    private func checkIn(_ session: SQLiteSession) {
        let kept = idle.withLock { idle in
            guard !idle.isClosed, idle.sessions.count < capacity else { return false }
            idle.sessions.append(session)
            return true
        }
        if !kept { session.close() }
    }
}
