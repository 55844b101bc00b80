import Foundation
@testable import Storage
import Testing

/// A daemon thread's session that cannot be opened (a server that does not answer, or one at its
/// `max_connections`) is not an error of the read: the read goes through the pool (`nil` here), and
/// no further open is tried for a while, so a server in trouble does not cost every read a
/// connection attempt.
@Suite struct PostgresInlineSessionsTests {
    @Test func aSessionThatCannotBeOpenedSendsTheReadToThePoolAndPausesOpening() throws {
        // A socket that listens and never answers: libpq waits for the server's first message until
        // its connect timeout (1 s) and gives up.
        let listener = try SilentListener()
        let sessions = PostgresInlineSessions(
            url: "postgres://passwright@127.0.0.1:\(listener.port)/passwright?connect_timeout=1", location: "127.0.0.1", capacity: 2)
        let first = ContinuousClock.now
        #expect(try sessions.withSession { _ in 1 } == nil, "not thrown: the pool answers instead")
        #expect(ContinuousClock.now - first >= .milliseconds(900), "an open was tried and timed out")
        let second = ContinuousClock.now
        #expect(try sessions.withSession { _ in 1 } == nil)
        #expect(ContinuousClock.now - second < .milliseconds(500), "within the pause no open is tried")
        sessions.close()
        #expect(throws: StorageError.self) { try sessions.withSession { _ in 1 } }
    }
}

/// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never reads or writes.
private final class SilentListener {
    let port: Int
    private let socket: Int32

    struct Failed: Error {}

    init() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            close(descriptor)
            throw Failed()
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        socket = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }
}
