internal import CPostgres
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `LISTEN` on a connection of its own, driven by one dedicated thread that blocks in `poll(2)` on
/// the connection's socket and on a ``WakePipe``: a notification wakes it through the socket, a
/// cancelled task through the pipe. Nothing polls on a timer, and the thread, the connection and the
/// pipe are all gone before ``listen(url:location:channel:notified:)`` returns.
enum PostgresListener {
    /// Connects, listens on `channel` and calls `notified` once when listening (notifications sent
    /// before were not heard) and then once per batch of notifications that arrive together; returns
    /// when the task is cancelled, throws when connecting or the connection fails.
    static func listen(url: String, location: String, channel: String, notified: @escaping @Sendable () -> Void) async throws {
        let plain = channel.utf8.first.map { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } == true && channel.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        // Spliced into `LISTEN`, which takes no parameters: only a plain identifier is accepted.
        precondition(plain, "a notification channel is a plain lowercase identifier")
        guard let wake = WakePipe() else {
            throw StorageError.connectionFailed(engine: .postgres, location: location, message: "cannot create the pipe that stops the listener: \(String(cString: strerror(errno)))")
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let thread = Thread {
                    do {
                        try run(url: url, location: location, channel: channel, wake: wake, notified: notified)
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
                thread.name = "passwright-postgres-listen"
                thread.start()
            }
        } onCancel: {
            wake.ring()
        }
    }

    /// What a wait on the socket ended with.
    private enum Readiness {
        case socket
        case stopped
    }

    /// The thread's body: a non-blocking connect (so a stop is heard even while the server does not
    /// answer), `LISTEN`, then wait for input and drain the notifications until stopped.
    private static func run(url: String, location: String, channel: String, wake: WakePipe, notified: @Sendable () -> Void) throws {
        guard let pointer = PQconnectStart(url) else {
            throw StorageError.connectionFailed(engine: .postgres, location: location, message: "libpq could not allocate a connection")
        }
        let handle = PostgresHandle(takingOwnershipOf: pointer)
        guard PQstatus(pointer) != CONNECTION_BAD else {
            throw StorageError.connectionFailed(engine: .postgres, location: location, message: handle.lastMessage)
        }
        var polling = PGRES_POLLING_WRITING
        while polling != PGRES_POLLING_OK {
            guard polling != PGRES_POLLING_FAILED else {
                throw StorageError.connectionFailed(engine: .postgres, location: location, message: handle.lastMessage)
            }
            // libpq may switch sockets while it connects, so ask for it every round.
            let events = polling == PGRES_POLLING_READING ? POLLIN : POLLOUT
            guard try wait(for: Int16(events), on: PQsocket(pointer), or: wake, location: location) == .socket else { return }
            polling = PQconnectPoll(pointer)
        }
        let statement = "LISTEN \(channel)"
        _ = try PostgresSession.check(PQexec(pointer, statement), sql: statement, on: handle)
        notified()
        while true {
            guard try wait(for: Int16(POLLIN), on: PQsocket(pointer), or: wake, location: location) == .socket else { return }
            guard PQconsumeInput(pointer) == 1, PQstatus(pointer) == CONNECTION_OK else {
                throw StorageError.connectionFailed(engine: .postgres, location: location, message: handle.lastMessage)
            }
            var heard = false
            while let notification = PQnotifies(pointer) {
                PQfreemem(notification)
                heard = true
            }
            if heard { notified() }
        }
    }

    /// Blocks until `socket` is ready for `events` or the pipe is rung; the pipe wins a tie.
    private static func wait(for events: Int16, on socket: Int32, or wake: WakePipe, location: String) throws -> Readiness {
        guard socket >= 0 else {
            throw StorageError.connectionFailed(engine: .postgres, location: location, message: "the listening connection has no socket")
        }
        var descriptors = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready > 0 { break }
            if ready < 0 && errno != EINTR {
                throw StorageError.connectionFailed(engine: .postgres, location: location, message: "poll failed: \(String(cString: strerror(errno)))")
            }
        }
        if descriptors[1].revents != 0 { return .stopped }
        // POLLHUP / POLLERR count as ready: the next libpq call reports the broken connection.
        return .socket
    }
}

/// A pipe whose write end wakes a thread blocked in `poll(2)` on its read end. Owns both descriptors
/// and closes them in `deinit`, so a ring after the thread ended never writes to a reused descriptor.
///
/// `Sendable`: it holds two immutable descriptors; a ring is one `write(2)`, safe from any thread.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    /// A new pipe, or `nil` when the process is out of descriptors (`errno` says why).
    init?() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        readEnd = descriptors[0]
        writeEnd = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        // A ring never blocks, however many came before.
        _ = fcntl(writeEnd, F_SETFL, O_NONBLOCK)
    }

    /// Makes the read end readable for good (nothing ever reads it); a full pipe is already readable.
    func ring() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
