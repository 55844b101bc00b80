import Foundation
import HTTPServer
import PassModel
import Signing
import WalletStore

/// Apple's Wallet web service protocol (digest §3), under `/wallet/v1/…`: what Wallet on an iPhone
/// calls after a pass with a `webServiceURL` is added.
///
/// A wrong token and an unknown pass answer the same `401`, so the endpoint does not tell an attacker
/// which serial numbers exist.
struct WalletProtocolRoutes {
    let service: PassService
    let store: WalletStore
    let metrics: ServiceMetrics

    func register(in table: inout RouteTable) {
        let prefix = "/wallet/v1"
        table.add(.post, "\(prefix)/devices/:device/registrations/:passType/:serial", maxBodySize: 4096) { request in
            try await registerDevice(request)
        }
        table.add(.get, "\(prefix)/devices/:device/registrations/:passType") { request in
            try await updatedSerials(request)
        }
        table.add(.get, "\(prefix)/passes/:passType/:serial") { request in
            try await latestPass(request)
        }
        table.add(.delete, "\(prefix)/devices/:device/registrations/:passType/:serial") { request in
            try await unregisterDevice(request)
        }
        table.add(.post, "\(prefix)/log", maxBodySize: 64 << 10) { request in
            try await log(request)
        }
        table.add(.post, "\(prefix)/passes/:passType/:serial/personalize", maxBodySize: 16 << 10) { request in
            try await personalize(request)
        }
    }

    /// The pass named by the path, if the request carries its token; `nil` answers 401.
    private func authorizedPass(_ request: HTTPRequest) async throws -> StoredPass? {
        let key = request.passKey
        let token = Credentials.passToken(request)
        let pass = try await store.pass(key)
        // Compare even when the pass is missing, so both paths take the same time.
        let matches = constantTimeEquals(token ?? "", pass?.authenticationToken ?? "\u{0}missing")
        guard let pass, token != nil, matches else { return nil }
        return pass
    }

    private static let unauthorized = HTTPResponse.problem(status: .unauthorized, detail: "missing or wrong Authorization: ApplePass token for this pass")

    private func registerDevice(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let pass = try await authorizedPass(request) else { return Self.unauthorized }
        let body = try request.jsonObject(requireContentType: false)
        guard let pushToken = try body.string("pushToken"), !pushToken.isEmpty, pushToken.count <= 256,
              pushToken.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isASCIIHexDigit }) else {
            throw RequestError.badRequest("pushToken must be the device's hex push token")
        }
        let device = request.parameters["device"] ?? ""
        let result = try await store.register(deviceLibraryIdentifier: device, pushToken: pushToken, pass: pass.key)
        if result == .created { metrics.deviceRegistered() }
        return .empty(status: result == .created ? .created : .ok)
    }

    private func updatedSerials(_ request: HTTPRequest) async throws -> HTTPResponse {
        let since = request.query("passesUpdatedSince").flatMap { Int64($0) }
        guard let updated = try await store.serialNumbers(
            deviceLibraryIdentifier: request.parameters["device"] ?? "", passTypeIdentifier: request.parameters["passType"] ?? "",
            updatedSince: since) else { return .empty(status: .noContent) }
        let body: JSONValue = .object([
            "serialNumbers": .array(updated.serialNumbers.map { .string($0) }),
            "lastUpdated": .string(String(updated.lastUpdated)),
        ])
        return .json(body.serialized(sortedKeys: true))
    }

    private func latestPass(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let pass = try await authorizedPass(request) else { return Self.unauthorized }
        let lastModified = HTTPDate.format(pass.lastModified)
        if let since = request.headers["if-modified-since"].flatMap(HTTPDate.parse),
           pass.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970 {
            return .empty(status: .notModified, headers: ["Last-Modified": lastModified])
        }
        var response = HTTPResponse.bytes(try service.archive(for: pass), contentType: "application/vnd.apple.pkpass")
        response.headers["Last-Modified"] = lastModified
        return response
    }

    private func unregisterDevice(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let pass = try await authorizedPass(request) else { return Self.unauthorized }
        _ = try await store.unregister(deviceLibraryIdentifier: request.parameters["device"] ?? "", pass: pass.key)
        return .empty(status: .ok)
    }

    private func log(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.jsonObject(requireContentType: false)
        guard case .array(let entries)? = body["logs"] else { throw RequestError.badRequest("logs must be an array of strings") }
        let lines = try entries.prefix(100).map { entry throws(RequestError) -> String in
            guard case .string(let line) = entry else { throw .badRequest("logs must be an array of strings") }
            return String(line.prefix(4096))
        }
        try await store.appendLogs(lines)
        return .empty(status: .ok)
    }

    private func personalize(_ request: HTTPRequest) async throws -> HTTPResponse {
        let key = request.passKey
        // Apple's protocol sends no token here, so only passes that offer personalization accept it,
        // and only once: nobody can rewrite a personalized pass by knowing its serial number.
        guard let pass = try await store.pass(key), service.offersPersonalization(pass) else {
            return .problem(status: .notFound, detail: "no such pass offers personalization")
        }
        if case .object(let data) = try PassService.value(pass.data), data["personalization"] != nil {
            return .problem(status: .conflict, detail: "this pass is already personalized")
        }
        let body = try request.jsonObject(requireContentType: false)
        guard let token = try body.string("personalizationToken"), !token.isEmpty else {
            throw RequestError.badRequest("personalizationToken is required")
        }
        let info = try body.object("requiredPersonalizationInfo") ?? JSONObject()
        _ = try await service.update(key, PassService.Change(data: .object(["personalization": .object(info)]), overrides: JSONObject(), voided: nil))
        return .bytes(try service.signPersonalizationToken(token, for: pass), contentType: "application/octet-stream")
    }
}
