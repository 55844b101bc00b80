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
    func finish(_ code: CURLcode) {
        guard code == CURLE_OK else {
            fail(CurlGate.error(for: code, server: server, timeout: timeout, detail: easy.failureDetail(code)))
            return
        }
        let errorBody = try? JSONDecoder().decode(ErrorBody.self, from: Data(easy.body))
        continuation.resume(returning: .success(APNsResponse(
            status: easy.responseCode,
            reason: errorBody?.reason,
            timestamp: errorBody?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) },
            apnsID: easy.apnsID
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
