import WalletCore
import HTTPServer

extension HTTPResponse {
    /// A wire value as `application/json`, encoded by ``WireJSON`` (sorted keys, ISO 8601 dates):
    /// the one way an admin route answers with JSON, so every body has the same formatting.
    static func json(_ value: some WireValue, status: HTTPStatus = .ok) throws -> HTTPResponse {
        json(try WireJSON.encode(value), status: status)
    }
}
