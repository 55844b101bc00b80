internal import CCurl
import Foundation

/// One request in flight: its easy handle, the pool the handle goes back to once the answer is read,
/// and the continuation of the `send` waiting for it.
///
/// `@unchecked Sendable`: `send` builds it and hands it over through the loop's lock; from then on
/// only the loop thread touches it, and `finish` runs exactly once.
final class CurlTransfer: @unchecked Sendable {
    let easy: CurlEasy
    private let pool: CurlEasyPool
    private let server: String
    private let timeout: Duration
    private let continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>

    init(easy: CurlEasy, pool: CurlEasyPool, server: String, timeout: Duration, continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>) {
        self.easy = easy
        self.pool = pool
        self.server = server
        self.timeout = timeout
        self.continuation = continuation
    }

    /// Resumes `send` with the answer, or with the failure libcurl reported. Called after the handle
    /// has left the multi handle; a handle that libcurl ended without an error goes back to the pool
    /// once the answer is copied out of it.
    ///
    /// A complete response is the answer even when libcurl ends the transfer with an error: a server
    /// may answer before reading the body and then reset the stream with RST_STREAM(NO_ERROR)
    /// (RFC 9113 §8.1), which libcurl reports as a stream error. Failing it would resend a push APNs
    /// has already taken (issue #14). Only what reached the callbacks counts: libcurl 7.88 can also end
    /// such a stream while the answer is still in its own buffers (when the transfer tries to send the
    /// body before it reads), and then no status is known and the request fails as before.
    func finish(_ code: CURLcode) {
        let status: Int
        if code == CURLE_OK {
            status = easy.responseCode
        } else if !easy.bodyOverflowed, let answered = easy.response.completeStatus {
            status = answered
        } else {
            fail(CurlGate.error(
                for: code, server: server, timeout: timeout, detail: easy.failureDetail(code),
                overflowed: easy.bodyOverflowed, limit: easy.maxResponseBody
            ))
            return
        }
        let response = HTTPClientResponse(status: status, headers: easy.response.headers, body: Data(easy.response.body))
        if code == CURLE_OK { pool.giveBack(easy) }
        continuation.resume(returning: .success(response))
    }

    /// Resumes `send` with an error that happened outside libcurl's transfer (shutdown, add failure).
    func fail(_ error: HTTPClientError) {
        continuation.resume(returning: .failure(error))
    }
}
