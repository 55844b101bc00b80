import Logging
import Locking
import Foundation
import HTTPServer
import PasswrightTesting
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

/// Collects log events so tests can check what reached the log (and what did not reach the client):
/// the test kit's ``LogCapture``, under the name these suites know it by.
typealias LogRecorder = LogCapture

/// The HTTP server suites' well-formed request: ``RawHTTPClient/send(_:_:headers:body:)`` with an empty
/// body meaning none, except that `POST` and `PUT` always say `Content-Length`.
extension RawHTTPClient {
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data = Data()) async throws -> RawResponse {
        try await send(method, target, headers: headers, body: body.isEmpty && method != "POST" && method != "PUT" ? nil : body)
    }
}

/// Counts calls from handlers running on any thread.
final class Counter: Sendable {
    private let value = Locked(0)

    func increment() { value.withLock { $0 += 1 } }

    var count: Int { value.withLock { $0 } }
}
