import Foundation
import HTTPServer
import PassModel
import WalletCore

/// The body of `POST /api/v1/webhooks`: where to deliver and what.
public struct WebhookRequest: WireRequestBody {
    public static let schemaName = "WebhookRequest"
    public let members: JSONObject

    public var url: String { members["url"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "" }
    public var description: String { members["description"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "" }
    public var types: [String]? { WebhookBodies.strings(members["types"]) }
    public var templates: [String]? { WebhookBodies.strings(members["templates"]) }

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["url", "description", "types", "templates"])
        guard try body.string("url") != nil else { throw HTTPError(.unprocessableContent, "url is required: where to deliver (https)") }
        _ = try body.string("description")
        try WebhookBodies.checkList(body, "types")
        try WebhookBodies.checkList(body, "templates")
        members = body
    }

    public init(url: String, description: String = "", types: [String]? = nil, templates: [String]? = nil) {
        var members: JSONObject = ["url": .string(url), "description": .string(description)]
        if let types { members["types"] = .array(types.map(JSONValue.string)) }
        if let templates { members["templates"] = .array(templates.map(JSONValue.string)) }
        self.members = members
    }
}

/// The body of `PATCH /api/v1/webhooks/{id}`: what to change; `templates: null` delivers every template's events.
public struct WebhookChange: WireRequestBody {
    public static let schemaName = "WebhookChange"
    public let members: JSONObject

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["url", "description", "types", "templates", "enabled"])
        _ = try body.string("url")
        _ = try body.string("description")
        try WebhookBodies.checkList(body, "types")
        try WebhookBodies.checkList(body, "templates")
        if let enabled = body["enabled"], case .bool = enabled {} else if body["enabled"] != nil {
            throw HTTPError(.unprocessableContent, "enabled must be true or false")
        }
        members = body
    }

    public init(members: JSONObject) {
        self.members = members
    }

    /// The change as the service takes it.
    var change: WebhookService.Change {
        var change = WebhookService.Change()
        if case .string(let url)? = members["url"] { change.url = url }
        if case .string(let description)? = members["description"] { change.description = description }
        if let types = members["types"] { change.types = .some(WebhookBodies.strings(types)) }
        if let templates = members["templates"] { change.templates = .some(WebhookBodies.strings(templates)) }
        if case .bool(let enabled)? = members["enabled"] { change.enabled = enabled }
        return change
    }
}

/// The body of `POST /api/v1/webhooks/{id}/rotate-secret`: how long the old secret keeps signing.
public struct WebhookRotation: WireRequestBody {
    public static let schemaName = "WebhookRotation"
    public let members: JSONObject
    public var overlapSeconds: Int {
        if case .number(let seconds)? = members["overlapSeconds"] { Int(seconds) } else { 86_400 }
    }

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["overlapSeconds"])
        if let value = body["overlapSeconds"] {
            guard case .number(let seconds) = value, seconds >= 0, seconds <= 604_800, seconds.rounded() == seconds else {
                throw HTTPError(.unprocessableContent, "overlapSeconds must be a whole number of seconds from 0 to 604800 (a week)")
            }
        }
        members = body
    }

    public init(overlapSeconds: Int) {
        members = ["overlapSeconds": .number(Double(overlapSeconds))]
    }
}

/// The body of `POST /api/v1/webhooks/{id}/replay`: every event since a time, or one event.
public struct WebhookReplay: WireRequestBody {
    public static let schemaName = "WebhookReplay"
    public let members: JSONObject
    public var since: Date? {
        if case .string(let text)? = members["since"] { WebhookBodies.date(text) } else { nil }
    }
    public var event: String? {
        if case .string(let text)? = members["event"] { text } else { nil }
    }

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["since", "event"])
        if let since = try body.string("since"), WebhookBodies.date(since) == nil {
            throw HTTPError(.unprocessableContent, "since must be an ISO 8601 time such as 2026-12-01T00:00:00Z, not '\(since)'")
        }
        _ = try body.string("event")
        guard body["since"] != nil || body["event"] != nil else {
            throw HTTPError(.unprocessableContent, "give since (a time) or event (an event id such as evt_12)")
        }
        members = body
    }

    public init(since: Date? = nil, event: String? = nil) {
        var members = JSONObject()
        if let since { members["since"] = .string(since.formatted(.iso8601)) }
        if let event { members["event"] = .string(event) }
        self.members = members
    }
}

enum WebhookBodies {
    static func strings(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// A list member is absent, `null`, or an array of strings.
    static func checkList(_ body: JSONObject, _ key: String) throws(HTTPError) {
        switch body[key] {
        case nil, .null?: return
        case .array(let items)? where items.allSatisfy({ if case .string = $0 { true } else { false } }): return
        default: throw HTTPError(.unprocessableContent, "\(key) must be an array of strings")
        }
    }

    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
