import Foundation
import HTTPServer
import PassModel
import Signing
import WalletCore

/// Apple's Wallet web service protocol (Apple's Wallet Web Service Reference), under `/wallet/v1/…`: what Wallet on an iPhone
/// calls after a pass with a `webServiceURL` is added.
///
/// A wrong token and an unknown pass answer the same `401`, so the endpoint does not tell an attacker
/// which serial numbers exist.
struct WalletProtocolRoutes {
    let service: PassService
    let metrics: ServiceMetrics

    /// The routes under `/wallet/v1`, whose pass-specific ones carry the device's `ApplePass` token.
    var group: RouteGroup {
        var group = RouteGroup("/wallet/v1", auth: ServiceAuth.deviceToken(service))
        group.add(Route(
            .post, "/devices/:device/registrations/:passType/:serial", operationID: "registerDevice",
            summary: "Register a device for a pass's updates", maxBodySize: 4096,
            requestBody: Self.deviceJSON("PushToken"),
            responses: [
                .empty(.ok, "Already registered (push token updated)"), .empty(.created, "Registered"),
                .problem(.badRequest, "Malformed body or path"),
            ]) { request, context in try await registerDevice(request, context) })
        group.add(Route(
            .get, "/devices/:device/registrations/:passType", operationID: "updatedSerials",
            summary: "Serial numbers of the device's passes updated since a tag", auth: RouteAuth.none,
            parameters: [RouteParameter("passesUpdatedSince", in: .query)],
            responses: [.json(.ok, "OK", schema: "SerialNumbers"), .empty(.noContent, "Nothing updated")]
        ) { request, context in try await updatedSerials(request, context) })
        group.add(Route(
            .get, "/passes/:passType/:serial", operationID: "latestPass", summary: "The latest version of a pass",
            parameters: [RouteParameter("If-Modified-Since", in: .header)],
            responses: [
                RouteResponse(.ok, "The signed pass", body: RouteBody("application/vnd.apple.pkpass", schema: "PassArchive")),
                .empty(.notModified, "Not modified"),
            ]) { request, context in try await latestPass(request, context) })
        group.add(Route(
            .delete, "/devices/:device/registrations/:passType/:serial", operationID: "unregisterDevice",
            summary: "Unregister a device", responses: [.empty(.ok, "Unregistered")]
        ) { request, context in try await unregisterDevice(request, context) })
        group.add(Route(
            .post, "/log", operationID: "deviceLog", summary: "Log lines from devices", auth: RouteAuth.none,
            maxBodySize: 64 << 10, requestBody: Self.deviceJSON("LogEntries"),
            responses: [.empty(.ok, "Stored"), .problem(.badRequest, "Malformed body")]
        ) { request, _ in try await log(request) })
        group.add(Route(
            .post, "/passes/:passType/:serial/personalize", operationID: "personalizePass",
            summary: "Personalize a pass; answers the signed personalization token", auth: RouteAuth.none, maxBodySize: 16 << 10,
            requestBody: Self.deviceJSON("Personalization"),
            responses: [
                RouteResponse(.ok, "Detached CMS signature of the token", body: RouteBody("application/octet-stream", schema: "Signature")),
                .problem(.badRequest, "Malformed body"),
                .problem(.notFound, "No such pass, or its template offers no personalization"),
                .problem(.conflict, "Already personalized"), .problem(.unprocessableContent, "Invalid values"),
            ]) { request, context in try await personalize(request, context) })
        return group
    }

    /// A JSON body from a device: Wallet's protocol does not promise a `Content-Type`, so none is required.
    private static func deviceJSON(_ schema: String) -> RouteBody {
        RouteBody("application/json", schema: schema, checksContentType: false)
    }

    /// On the byte: a scalar's Unicode properties cost more than the rest of the check.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    private func registerDevice(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let pass = try context.identity(as: PassService.AuthorizedPass.self)
        let body = try request.jsonObject()
        guard let pushToken = try body.string("pushToken"), !pushToken.isEmpty, pushToken.count <= 256,
              pushToken.utf8.allSatisfy(Self.isHexDigit) else {
            throw HTTPError.badRequest("pushToken must be the device's hex push token")
        }
        let device = try context.parameters.require("device")
        let result = try await service.register(deviceLibraryIdentifier: device, pushToken: pushToken, for: pass.key)
        if result == .created { metrics.deviceRegistered() }
        return .empty(status: result == .created ? .created : .ok)
    }

    private func updatedSerials(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let since = request.query("passesUpdatedSince").flatMap { Int64($0) }
        guard let updated = try await service.updatedSerials(
            deviceLibraryIdentifier: try context.parameters.require("device"), passTypeIdentifier: try context.parameters.require("passType"),
            since: since) else { return .empty(status: .noContent) }
        let body: JSONValue = .object([
            "serialNumbers": .array(updated.serialNumbers.map { .string($0) }),
            "lastUpdated": .string(String(updated.lastUpdated)),
        ])
        return .json(body.serialized(sortedKeys: true))
    }

    private func latestPass(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let pass = try context.identity(as: PassService.AuthorizedPass.self)
        let lastModified = HTTPDate.format(pass.lastModified)
        if let since = request.headers["if-modified-since"].flatMap(HTTPDate.parse),
           pass.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970 {
            return .empty(status: .notModified, headers: ["Last-Modified": lastModified])
        }
        var response = HTTPResponse.bytes(try await service.archive(for: pass), contentType: "application/vnd.apple.pkpass")
        response.headers["Last-Modified"] = lastModified
        return response
    }

    private func unregisterDevice(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let pass = try context.identity(as: PassService.AuthorizedPass.self)
        _ = try await service.unregister(deviceLibraryIdentifier: try context.parameters.require("device"), from: pass.key)
        return .empty(status: .ok)
    }

    private func log(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = try request.jsonObject()
        guard case .array(let entries)? = body["logs"] else { throw HTTPError.badRequest("logs must be an array of strings") }
        let lines = try entries.prefix(100).map { entry throws(HTTPError) -> String in
            guard case .string(let line) = entry else { throw .badRequest("logs must be an array of strings") }
            return String(line.prefix(4096))
        }
        try await service.appendDeviceLogs(lines)
        return .empty(status: .ok)
    }

    private func personalize(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.passKey()
        // Apple's protocol sends no token here, so only passes that offer personalization accept it,
        // and only once: nobody can rewrite a personalized pass by knowing its serial number.
        let notOffered = HTTPResponse.problem(status: .notFound, detail: "no such pass offers personalization")
        let already = HTTPResponse.problem(status: .conflict, detail: "this pass is already personalized")
        // Checked before the body, so a second request gets 409 whatever it sends.
        guard let pass = try await service.pass(key), await service.offersPersonalization(pass) else { return notOffered }
        if try PassService.isPersonalized(pass) { return already }
        let body = try request.jsonObject()
        guard let token = try body.string("personalizationToken"), !token.isEmpty else {
            throw HTTPError.badRequest("personalizationToken is required")
        }
        let info = try body.object("requiredPersonalizationInfo") ?? JSONObject()
        switch try await service.personalize(key, token: token, info: info) {
        case .signed(let signature): return .bytes(signature, contentType: "application/octet-stream")
        case .notOffered: return notOffered
        case .alreadyPersonalized: return already
        }
    }
}
