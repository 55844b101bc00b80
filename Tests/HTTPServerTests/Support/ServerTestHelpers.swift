import Locking
import Foundation
import PasswrightTesting

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
