import Foundation
import HTTPServer
import PassModel
import WalletCore

/// The body of `POST /api/v1/keys`: the key's name, scopes, and optionally its templates and expiry.
public struct APIKeyRequest: WireRequestBody {
    public static let schemaName = "APIKeyRequest"
    public let members: JSONObject

    public var name: String { members["name"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "" }
    public var scopes: [String] { WebhookBodies.strings(members["scopes"]) ?? [] }
    public var templates: [String]? { WebhookBodies.strings(members["templates"]) }
    public var expiresAt: Date? { members["expiresAt"].flatMap { if case .string(let text) = $0 { WebhookBodies.date(text) } else { nil } } }

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["name", "scopes", "templates", "expiresAt"])
        guard try body.string("name") != nil else { throw HTTPError(.unprocessableContent, "name is required: who or what uses the key") }
        guard case .array? = body["scopes"] else { throw HTTPError(.unprocessableContent, "scopes is required: an array such as [\"passes:read\"]") }
        try WebhookBodies.checkList(body, "scopes")
        try WebhookBodies.checkList(body, "templates")
        if let text = try body.string("expiresAt"), WebhookBodies.date(text) == nil {
            throw HTTPError(.unprocessableContent, "expiresAt must be an ISO 8601 time such as 2027-01-31T00:00:00Z")
        }
        members = body
    }

    public init(name: String, scopes: [String], templates: [String]? = nil, expiresAt: Date? = nil) {
        var members: JSONObject = ["name": .string(name), "scopes": .array(scopes.map(JSONValue.string))]
        if let templates { members["templates"] = .array(templates.map(JSONValue.string)) }
        if let expiresAt { members["expiresAt"] = .string(expiresAt.formatted(.iso8601)) }
        self.members = members
    }
}
