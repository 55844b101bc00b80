import Foundation
import HTTPServer
import WalletCore

/// `/api/v1/keys`: API keys created (shown once), listed, rotated and revoked, by a caller with the
/// `keys:manage` scope.
struct KeyRoutes {
    let keys: APIKeyService

    func group(auth: APIAuth) -> RouteGroup {
        let keys = self.keys
        var group = RouteGroup("/api/v1")
        let notFound = HTTPResponse.problem(status: .notFound, detail: "no such API key (or it is revoked)")
        group.add(Route(
            .post, "/keys", operationID: "createAPIKey", summary: "Create an API key with scopes (and templates, an expiry); answers the key, shown this once",
            auth: auth.requiring(.keysManage), maxBodySize: 16 << 10, requestBody: .json(APIKeyRequest.schemaName),
            responses: [
                .json(.created, "Created", schema: APIKeyCreated.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.unprocessableContent, "A missing name, an unknown scope, an expiry in the past"),
            ]
        ) { request, context in
            let body = try APIKeyRequest(validating: request.jsonObject())
            let issued = try await keys.create(
                name: body.name, scopes: body.scopes, templates: body.templates, expiresAt: body.expiresAt, origin: try context.identity(as: APICaller.self).origin)
            return try .json(APIKeyCreated(key: APIKeyDetails(issued.key, now: Date()), secret: issued.token), status: .created)
        })
        group.add(Route(
            .get, "/keys", operationID: "listAPIKeys", summary: "Every API key, revoked ones too (never a secret)", auth: auth.requiring(.keysManage),
            responses: [.json(.ok, "Keys", schema: APIKeyList.schemaName)]
        ) { _, _ in try .json(APIKeyList(keys: try await keys.list().map { APIKeyDetails($0, now: Date()) })) })
        group.add(Route(
            .get, "/keys/:key", operationID: "getAPIKey", summary: "One API key: scopes, templates, expiry, last use", auth: auth.requiring(.keysManage),
            responses: [.json(.ok, "The key", schema: APIKeyDetails.schemaName), .problem(.notFound, "No such key")]
        ) { _, context in
            guard let key = try await keys.key(try context.parameters.require("key")) else { return notFound }
            return try .json(APIKeyDetails(key, now: Date()))
        })
        group.add(Route(
            .post, "/keys/:key/rotate", operationID: "rotateAPIKey", summary: "A new secret for the key, shown this once; the old one stops working",
            auth: auth.requiring(.keysManage),
            responses: [.json(.ok, "The key and its new secret", schema: APIKeyCreated.schemaName), .problem(.notFound, "No such key, or revoked")]
        ) { _, context in
            guard let issued = try await keys.rotate(try context.parameters.require("key"), origin: try context.identity(as: APICaller.self).origin) else {
                return notFound
            }
            return try .json(APIKeyCreated(key: APIKeyDetails(issued.key, now: Date()), secret: issued.token))
        })
        group.add(Route(
            .delete, "/keys/:key", operationID: "revokeAPIKey", summary: "Revoke the key for good", auth: auth.requiring(.keysManage),
            responses: [.empty(.noContent, "Revoked"), .problem(.notFound, "No such key, or revoked already")]
        ) { _, context in
            try await keys.revoke(try context.parameters.require("key"), origin: try context.identity(as: APICaller.self).origin) ? .empty() : notFound
        })
        return group
    }
}
