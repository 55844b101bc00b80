import Logging
import Locking
import Foundation
import HTTPServer
import Testing

/// Runs `body` against a real server on 127.0.0.1 with an ephemeral port, and always shuts it down.
func withServer<Result: Sendable>(
    _ responder: some HTTPResponder,
    configuration: HTTPServerConfiguration = HTTPServerConfiguration(port: 0, threadCount: 2),
    logger: Logger = Logger(label: "http.test", level: .error),
    _ body: (RawHTTPClient) async throws -> Result
) async throws -> Result {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, responder: responder, logger: logger)
    try server.start()
    let port = try #require(server.port)
    do {
        let result = try await body(RawHTTPClient(port: port))
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// Collects log events so tests can check what reached the log (and what did not reach the client).
final class LogRecorder: Sendable {
    private let events = Locked<[LogEvent]>([])

    var logger: Logger {
        Logger(label: "http.test", level: .debug) { event in self.events.withLock { $0.append(event) } }
    }

    var recorded: [LogEvent] { events.withLock { $0 } }
}

/// Counts calls from handlers running on any thread.
final class Counter: Sendable {
    private let value = Locked(0)

    func increment() { value.withLock { $0 += 1 } }

    var count: Int { value.withLock { $0 } }
}
