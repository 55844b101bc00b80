/// A bounded pool of connections with a first-come queue of waiters.
///
/// Connections are opened lazily up to `capacity`. A caller that finds none idle waits its turn; a
/// connection given back goes straight to the oldest waiter. A connection returned as not reusable
/// (its transaction could not be ended cleanly) is closed, and its slot is offered to a waiter.
actor ConnectionPool<Connection: DatabaseConnection> {
    private let capacity: Int
    private let engine: DatabaseEngine
    private let connect: @Sendable () async throws -> Connection
    private var idle: [Connection] = []
    /// Connections opened or being opened, idle or leased.
    private var count = 0
    /// Waiters resumed with a connection, or with `nil` when a slot opened up for them to fill.
    private var waiters: [CheckedContinuation<Connection?, any Error>] = []
    private var isClosed = false

    init(capacity: Int, engine: DatabaseEngine, connect: @escaping @Sendable () async throws -> Connection) {
        self.capacity = capacity
        self.engine = engine
        self.connect = connect
    }

    /// Opens the first connection now, so a wrong URL or path fails at open, not at first use.
    func warmUp() async throws {
        let connection = try await lease()
        await release(connection, reusable: true)
    }

    /// Takes a connection for exclusive use; give it back with ``release(_:reusable:)``.
    func lease() async throws -> Connection {
        while true {
            guard !isClosed else { throw StorageError.closed(engine: engine) }
            if let connection = idle.popLast() {
                return connection
            }
            if count < capacity {
                count += 1
                do {
                    return try await connect()
                } catch {
                    count -= 1
                    offerSlot()
                    throw error
                }
            }
            if let connection = try await withCheckedThrowingContinuation({ waiters.append($0) }) {
                return connection
            }
        }
    }

    /// Gives a connection back; `reusable: false` closes it and frees its slot.
    func release(_ connection: Connection, reusable: Bool) async {
        guard reusable, !isClosed else {
            count -= 1
            offerSlot()
            await connection.close()
            return
        }
        if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().resume(returning: connection)
        }
    }

    /// Gives a connection straight to the oldest waiter, if there is one; returns whether it did.
    /// Otherwise the caller keeps it (SQLite's writer hands its open transaction on this way).
    func handOff(_ connection: Connection) -> Bool {
        guard !isClosed, !waiters.isEmpty else { return false }
        waiters.removeFirst().resume(returning: connection)
        return true
    }

    /// Runs `body` with a leased connection and gives it back afterwards.
    nonisolated func withConnection<T: Sendable>(_ body: @Sendable (Connection) async throws -> T) async throws -> T {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            await release(connection, reusable: true)
            return result
        } catch {
            await release(connection, reusable: true)
            throw error
        }
    }

    /// Closes idle connections, fails every waiter; leased connections close when released.
    func close() async {
        isClosed = true
        for waiter in waiters {
            waiter.resume(throwing: StorageError.closed(engine: engine))
        }
        waiters.removeAll()
        let connections = idle
        idle.removeAll()
        count -= connections.count
        for connection in connections {
            await connection.close()
        }
    }

    /// How many callers wait for a connection.
    var waiting: Int { waiters.count }

    private func offerSlot() {
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: nil)
        }
    }
}
