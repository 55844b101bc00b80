import Foundation
import HTTPServer
import WalletCore

/// `Idempotency-Key` on a write route of the admin API (the IETF httpapi draft): a client that did
/// not hear the answer sends the same request with the same key and gets the first answer again,
/// status, headers and body, with `Idempotent-Replayed: true`, instead of a second pass. The same key
/// with another request is 422; while the first request still runs, 409. Answers of the server's own
/// failures (5xx) are not kept: the retry runs again.
struct Idempotent: Sendable {
    let service: IdempotencyService

    /// Keys are per credential; the admin token is the one credential until API keys come.
    static let scope = "admin"

    /// The header, documented on every route that honours it.
    static let parameter = RouteParameter("Idempotency-Key", in: .header)

    func run(_ request: HTTPRequest, _ context: RequestContext, _ handler: () async throws -> HTTPResponse) async throws -> HTTPResponse {
        guard let header = request.headers["Idempotency-Key"] else { return try await handler() }
        // A structured-field string ("…") as the draft writes it, or the bare token clients send.
        var key = header.trimmingCharacters(in: .whitespaces)
        if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
        guard (1...IdempotencyService.maximumKeyLength).contains(key.utf8.count), key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw HTTPError.badRequest("Idempotency-Key must be 1 to \(IdempotencyService.maximumKeyLength) printable ASCII characters, such as a UUID")
        }
        let target = request.rawPath + (request.rawQuery.map { "?\($0)" } ?? "")
        let fingerprint = try request.spooledBody.map {
            try IdempotencyService.fingerprint(method: request.method.rawValue, path: target, reading: try $0.open())
        } ?? IdempotencyService.fingerprint(method: request.method.rawValue, path: target, body: request.body)
        switch try await service.claim(scope: Self.scope, key: key, fingerprint: fingerprint) {
        case .replay(let status, let fields, let body):
            var headers = HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.name, value: $0.value) })
            headers["Idempotent-Replayed"] = "true"
            return HTTPResponse(status: HTTPStatus(code: status), headers: headers, body: body)
        case .inFlight:
            return .problem(status: .conflict, detail: "a request with this Idempotency-Key is still being answered; retry once it is done",
                            headers: ["Retry-After": "1"])
        case .mismatch:
            return .problem(status: .unprocessableContent,
                            detail: "this Idempotency-Key was used with another request (method, path or body); use a new key for a new request")
        case .proceed:
            let response: HTTPResponse
            do {
                response = try await handler()
            } catch {
                response = ProblemResponses.response(for: error, context: context)
            }
            if response.status.code >= 500 {
                try? await service.release(scope: Self.scope, key: key)
                return response
            }
            try await service.finish(
                scope: Self.scope, key: key, status: response.status.code, headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: response.body)
            return response
        }
    }
}
