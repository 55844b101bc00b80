internal import CCurl
import Foundation

/// One request in flight: its easy handle and the continuation of the `send` waiting for it.
///
/// `@unchecked Sendable`: `send` builds it and hands it over through the loop's lock; from then on
/// only the loop thread touches it, and `finish` runs exactly once.
final class CurlTransfer: @unchecked Sendable {
    let easy: CurlEasy
    private let server: String
    private let timeout: Duration
    private let continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>

    init(easy: CurlEasy, server: String, timeout: Duration, continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>) {
        self.easy = easy
        self.server = server
        self.timeout = timeout
        self.continuation = continuation
    }

    /// Resumes `send` with the answer, or with the failure libcurl reported.
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
        continuation.resume(returning: .success(HTTPClientResponse(
            status: status, headers: easy.response.headers, body: Data(easy.response.body)
        )))
    }

    /// Resumes `send` with an error that happened outside libcurl's transfer (shutdown, add failure).
    func fail(_ error: HTTPClientError) {
        continuation.resume(returning: .failure(error))
    }
}
