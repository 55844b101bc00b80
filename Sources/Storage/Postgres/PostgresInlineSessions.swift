import Foundation
import Locking

/// Connections for reads run on the calling thread, when that thread may block
/// (``BlockingPermit``: an HTTP daemon thread running a responder's first step).
///
/// A read through the pool crosses threads three times (to the connection's queue, back to a
/// cooperative thread, and to the daemon thread that sends the answer); measured with
/// `Benchmarks/http.sh`, those switches were most of what a PostgreSQL read cost the server beyond
/// a SQLite one (BENCHMARKS.md). Here the daemon thread takes an idle session, runs the statement and
/// gives it back without suspending, so there are never more sessions in use than daemon threads;
/// up to `capacity` are kept open, beside the pool's. When none is idle and `capacity` are open, or
/// a session cannot be opened (the server at its `max_connections`), the caller goes through the pool
/// as before: a failure here never fails a read the pool could answer.
final class PostgresInlineSessions: Sendable {
    private struct Idle: ~Copyable {
        var sessions: [PostgresSession] = []
        var open = 0
        var isClosed = false
        /// No new session is opened before this, after an open failed.
        var opensAfter = ContinuousClock.now
    }

    /// How long no new session is tried after an open failed (the server at `max_connections`, or away).
    static let openPause = Duration.seconds(30)

    private let url: String
    private let location: String
    private let capacity: Int
    private let idle = Locked(Idle())

    init(url: String, location: String, capacity: Int) {
        (self.url, self.location, self.capacity) = (url, location, capacity)
    }

    /// Runs `body` on a session of its own, opened if none is idle; `nil` when all `capacity` are in
    /// use or none can be opened now.
    func withSession<T>(_ body: (PostgresSession) throws -> T) throws -> T? {
        guard let session = try checkOut() else { return nil }
        defer { checkIn(session) }
        return try body(session)
    }

    /// Closes the idle sessions; sessions in use close when given back, and later reads fail.
    func close() {
        let sessions = idle.withLock { idle in
            idle.isClosed = true
            idle.open -= idle.sessions.count
            defer { idle.sessions = [] }
            return idle.sessions
        }
        for session in sessions { session.close() }
    }

    private func checkOut() throws(StorageError) -> PostgresSession? {
        enum Lease { case idle(PostgresSession), new, none }
        let lease = try idle.withLock { (idle) throws(StorageError) -> Lease in
            guard !idle.isClosed else { throw .closed(engine: .postgres) }
            if let session = idle.sessions.popLast() { return .idle(session) }
            guard idle.open < capacity, ContinuousClock.now >= idle.opensAfter else { return .none }
            idle.open += 1
            return .new
        }
        switch lease {
        case .idle(let session):
            return session
        case .none:
            return nil
        case .new:
            let session = PostgresSession(location: location)
            do {
                try session.open(url: url)
            } catch {
                idle.withLock { idle in
                    idle.open -= 1
                    idle.opensAfter = ContinuousClock.now + Self.openPause
                }
                return nil
            }
            return session
        }
    }

    private func checkIn(_ session: PostgresSession) {
        let kept = idle.withLock { idle in
            guard !idle.isClosed else {
                idle.open -= 1
                return false
            }
            idle.sessions.append(session)
            return true
        }
        if !kept { session.close() }
    }
}
