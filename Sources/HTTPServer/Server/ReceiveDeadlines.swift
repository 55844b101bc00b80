import Locking
/// Cuts off connections that take longer than a limit to deliver a request, head and body.
///
/// libmicrohttpd's own timeout counts idle time only, so a client sending one header byte a second would
/// hold a connection (and, with enough such clients, the whole connection limit) forever. A connection's
/// clock starts when it opens and again when a response completes, and stops once a request is fully
/// received; `sweep()`, run once a second, shuts down the sockets past the limit and libmicrohttpd then
/// closes them. Connections are added and removed from libmicrohttpd's notifications under the same lock
/// as the sweep, and libmicrohttpd notifies before it closes a socket, so no socket is shut down after
/// its connection has gone (and its descriptor may have been reused).
final class ReceiveDeadlines: Sendable {
    private struct Waiting {
        let connection: MicroHTTPDConnection
        /// When the connection started waiting for a request; `nil` while one is being handled.
        var since: ContinuousClock.Instant?
    }

    /// How long a request may take to arrive.
    let limit: Duration
    private let clock = ContinuousClock()
    private let connections = Locked<[Int: Waiting]>([:])

    init(limit: Duration) {
        self.limit = limit
    }

    /// A connection was accepted: its first request must arrive within the limit.
    func opened(_ connection: MicroHTTPDConnection) {
        connections.withLock { $0[connection.key] = Waiting(connection: connection, since: clock.now) }
    }

    /// A request arrived in full (or was answered from its head): the clock stops.
    func received(_ connection: MicroHTTPDConnection) {
        connections.withLock { $0[connection.key]?.since = nil }
    }

    /// A request completed: the next one on this connection must arrive within the limit.
    func completed(_ connection: MicroHTTPDConnection) {
        let now = clock.now
        connections.withLock { $0[connection.key]?.since = now }
    }

    /// The connection is closing; forget it before libmicrohttpd closes its socket.
    func closed(_ connection: MicroHTTPDConnection) {
        connections.withLock { _ = $0.removeValue(forKey: connection.key) }
    }

    /// Shuts down every connection that has waited longer than the limit; returns how many.
    @discardableResult
    func sweep() -> Int {
        let now = clock.now
        return connections.withLock { connections in
            var count = 0
            for (key, waiting) in connections {
                guard let since = waiting.since, now - since > limit else { continue }
                waiting.connection.shutDown()
                connections[key]?.since = nil
                count += 1
            }
            return count
        }
    }
}
