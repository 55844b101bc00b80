import Foundation
import Storage

/// A receiver of webhook deliveries, as the store keeps it: its secret only sealed (the service holds
/// the key), its subscription as the event types and templates it wants (`nil`: all).
public struct WebhookEndpoint: Sendable, Equatable {
    public let id: String
    public let url: String
    public let description: String
    /// The event types delivered; `nil` for every type.
    public let eventTypes: Set<WalletEventType>?
    /// The templates whose events are delivered; `nil` for events of any template, and those of none.
    public let templates: Set<String>?
    public let sealedSecret: String
    /// The secret before the last rotation, still signing beside the new one until `previousSecretUntil`.
    public let previousSealedSecret: String?
    public let previousSecretUntil: Date?
    public let enabled: Bool
    /// Why deliveries stopped (410 Gone, retries exhausted), when they did.
    public let disabledReason: String?
    public let createdAt: Date

    static let columns = """
        id, url, description, event_types, templates, secret, previous_secret, previous_secret_until, enabled, disabled_reason, created_at
        """

    init(row: Row) throws {
        id = try row.string("id")
        url = try row.string("url")
        description = try row.string("description")
        eventTypes = try Self.list(row.string("event_types")).map { Set($0.compactMap(WalletEventType.init(rawValue:))) }
        templates = try Self.list(row.string("templates")).map(Set.init)
        sealedSecret = try row.string("secret")
        previousSealedSecret = try row.optionalString("previous_secret")
        previousSecretUntil = try row.optionalInt64("previous_secret_until").map(Milliseconds.date)
        enabled = try row.bool("enabled")
        disabledReason = try row.optionalString("disabled_reason")
        createdAt = Milliseconds.date(try row.int64("created_at"))
    }

    /// `*` is everything (`nil`); `,a,b,` is a list.
    static func list(_ text: String) -> [String]? {
        text == "*" ? nil : text.split(separator: ",").map(String.init)
    }

    /// The stored form of a list: `*` for everything, else the names between commas.
    static func text(_ names: [String]?) -> String {
        guard let names else { return "*" }
        return "," + names.sorted().joined(separator: ",") + ","
    }
}

/// A new endpoint to store.
public struct NewWebhookEndpoint: Sendable {
    public var id: String
    public var url: String
    public var description: String
    public var eventTypes: Set<WalletEventType>?
    public var templates: Set<String>?
    public var sealedSecret: String

    public init(id: String, url: String, description: String, eventTypes: Set<WalletEventType>?, templates: Set<String>?, sealedSecret: String) {
        self.id = id
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.templates = templates
        self.sealedSecret = sealedSecret
    }
}

/// One delivery of an event to an endpoint, as the console and the API show it.
public struct WebhookDelivery: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Waiting for its first attempt or a retry.
        case pending
        /// A 2xx arrived.
        case delivered
        /// Given up: retries exhausted or the endpoint answered 410.
        case failed
    }

    public let id: Int64
    public let endpointID: String
    public let eventID: String
    public let eventType: WalletEventType?
    public let state: State
    public let attempts: Int
    public let nextAttemptAt: Date
    public let lastStatus: Int?
    public let lastError: String?
    public let lastLatencyMilliseconds: Int?
    public let responseExcerpt: String?
    public let createdAt: Date
    public let settledAt: Date?

    init(row: Row) throws {
        id = try row.int64("id")
        endpointID = try row.string("endpoint_id")
        eventID = "evt_\(try row.int64("event_id"))"
        eventType = WalletEventType(rawValue: try row.string("type"))
        state = State(rawValue: try row.string("state")) ?? .pending
        attempts = try row.int("attempts")
        nextAttemptAt = Milliseconds.date(try row.int64("next_attempt_at"))
        lastStatus = try row.optionalInt64("last_status").map { Int($0) }
        lastError = try row.optionalString("last_error")
        lastLatencyMilliseconds = try row.optionalInt64("last_latency_ms").map { Int($0) }
        responseExcerpt = try row.optionalString("response_excerpt")
        createdAt = Milliseconds.date(try row.int64("created_at"))
        settledAt = try row.optionalInt64("settled_at").map(Milliseconds.date)
    }
}

/// A claimed delivery: what the worker sends and to whom.
public struct WebhookJob: Sendable {
    public let deliveryID: Int64
    public let endpoint: WebhookEndpoint
    public let event: WalletEvent
    /// Attempts made before this one.
    public let attempts: Int
    public let claimedBy: String
}

/// How a delivery attempt ended, as the worker reports it.
public struct WebhookAttempt: Sendable {
    public enum Result: Sendable {
        /// A 2xx: delivered.
        case delivered
        /// Try again after this long.
        case retry(after: Duration)
        /// Give up and stop the endpoint, saying why (410 Gone, retries exhausted).
        case giveUp(disabling: String)
    }

    public var result: Result
    public var status: Int?
    public var error: String?
    public var latency: Duration
    public var responseExcerpt: String?

    public init(result: Result, status: Int?, error: String?, latency: Duration, responseExcerpt: String?) {
        self.result = result
        self.status = status
        self.error = error
        self.latency = latency
        self.responseExcerpt = responseExcerpt
    }
}
