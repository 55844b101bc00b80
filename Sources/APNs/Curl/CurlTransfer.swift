internal import CCurl
import Foundation

/// One push in flight: its easy handle and the continuation of the `send` waiting for it.
///
/// `@unchecked Sendable`: `send` builds it and hands it over through the loop's lock; from then on
/// only the loop thread touches it, and `finish` runs exactly once.
final class CurlTransfer: @unchecked Sendable {
    let easy: CurlEasy
    private let server: String
    private let timeout: Duration
    private let continuation: CheckedContinuation<Result<APNsResponse, APNsError>, Never>

    init(easy: CurlEasy, server: String, timeout: Duration, continuation: CheckedContinuation<Result<APNsResponse, APNsError>, Never>) {
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
    /// body before it reads), and then no status is known and the push fails as before.
    func finish(_ code: CURLcode) {
        let status: Int
        if code == CURLE_OK {
            status = easy.responseCode
        } else if let answered = easy.response.completeStatus {
            status = answered
        } else {
            fail(CurlGate.error(for: code, server: server, timeout: timeout, detail: easy.failureDetail(code)))
            return
        }
        let errorBody = try? JSONDecoder().decode(ErrorBody.self, from: Data(easy.response.body))
        continuation.resume(returning: .success(APNsResponse(
            status: status,
            reason: errorBody?.reason,
            timestamp: errorBody?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) },
            apnsID: easy.response.apnsID
        )))
    }

    /// Resumes `send` with an error that happened outside libcurl's transfer (shutdown, add failure).
    func fail(_ error: APNsError) {
        continuation.resume(returning: .failure(error))
    }

    /// APNs error bodies: `{"reason": "...", "timestamp": <ms since 1970, 410 only>}`.
    private struct ErrorBody: Decodable {
        var reason: String?
        var timestamp: Double?
    }
}
