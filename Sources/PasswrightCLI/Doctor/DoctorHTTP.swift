import Foundation
import HTTPClient

/// The requests `doctor` makes to the deployment, over one HTTP client trusting what the TLS checks
/// trusted, so a request fails for the same reasons Wallet's would.
struct DoctorHTTP: Sendable {
    let base: URL
    let client: HTTPClient

    init(base: URL, caFile: URL?, timeout: Duration) throws {
        self.base = base
        client = try HTTPClient(configuration: HTTPClientConfiguration(
            schemes: ["http", "https"], version: .http1_1, caFile: caFile, requestTimeout: timeout,
            maxResponseBody: 8 << 20, threadName: "doctor-http"))
    }

    /// `path` under the base URL (or an absolute URL), with its answer or the reason there was none.
    func send(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: Data? = nil) async -> Result<HTTPClientResponse, HTTPClientError> {
        let url = path.hasPrefix("http://") || path.hasPrefix("https://")
            ? URL(string: path)
            : URL(string: base.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path)
        guard let url else { return .failure(.invalidRequest(field: "url", reason: "'\(path)' is not a URL")) }
        do {
            return .success(try await client.send(HTTPClientRequest(method: method, url: url, headers: headers, body: body)))
        } catch {
            return .failure(error)
        }
    }

    func shutdown() async {
        await client.shutdown()
    }
}

extension HTTPClientResponse {
    /// The `detail` of an RFC 9457 problem body, or the start of the body.
    var problemDetail: String {
        struct Problem: Decodable { var detail: String?; var title: String? }
        if let problem = try? JSONDecoder().decode(Problem.self, from: body), let text = problem.detail ?? problem.title { return text }
        return String(text.prefix(200))
    }
}
