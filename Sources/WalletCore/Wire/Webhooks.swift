import Foundation
import WalletStore

/// A webhook endpoint as the admin API shows it; never its secret (shown once, at creation and
/// rotation).
public struct WebhookEndpointDetails: WireValue {
    public static let schemaName = "WebhookEndpoint"

    public var id: String
    public var url: String
    public var description: String
    /// The event types delivered; `["*"]` for all.
    public var types: [String]
    /// The templates whose events are delivered; `null` for all events, of any template or none.
    @NullWhenAbsent public var templates: [String]?
    public var enabled: Bool
    /// Why deliveries stopped (410 Gone, retries exhausted, the API); `null` while enabled.
    @NullWhenAbsent public var disabledReason: String?
    public var createdAt: Date
    /// Until when the secret before the last rotation still signs beside the new one.
    @NullWhenAbsent public var previousSecretValidUntil: Date?

    public init(
        id: String, url: String, description: String, types: [String], templates: [String]?, enabled: Bool,
        disabledReason: String?, createdAt: Date, previousSecretValidUntil: Date?
    ) {
        self.id = id
        self.url = url
        self.description = description
        self.types = types
        self.templates = templates
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.createdAt = createdAt
        self.previousSecretValidUntil = previousSecretValidUntil
    }

    init(_ endpoint: WebhookEndpoint, now: Date) {
        self.init(
            id: endpoint.id, url: endpoint.url, description: endpoint.description,
            types: endpoint.eventTypes.map { $0.map(\.rawValue).sorted() } ?? ["*"], templates: endpoint.templates.map { $0.sorted() },
            enabled: endpoint.enabled, disabledReason: endpoint.disabledReason, createdAt: endpoint.createdAt,
            previousSecretValidUntil: endpoint.previousSecretUntil.flatMap { $0 > now ? $0 : nil })
    }
}

/// `GET /api/v1/webhooks`.
public struct WebhookList: WireValue {
    public static let schemaName = "WebhookList"
    public var webhooks: [WebhookEndpointDetails]

    public init(webhooks: [WebhookEndpointDetails]) {
        self.webhooks = webhooks
    }
}

/// What creating an endpoint answers: the endpoint and its signing secret, shown this once.
public struct WebhookCreated: WireValue {
    public static let schemaName = "WebhookCreated"
    public var webhook: WebhookEndpointDetails
    /// `whsec_…`: verify each delivery's `webhook-signature` with it (Standard Webhooks).
    public var secret: String

    public init(webhook: WebhookEndpointDetails, secret: String) {
        self.webhook = webhook
        self.secret = secret
    }
}

/// What rotating a secret answers: the new secret, shown this once, and until when the old one
/// still signs beside it.
public struct WebhookSecret: WireValue {
    public static let schemaName = "WebhookSecret"
    public var secret: String
    public var previousValidUntil: Date

    public init(secret: String, previousValidUntil: Date) {
        self.secret = secret
        self.previousValidUntil = previousValidUntil
    }
}

/// How many deliveries a replay queued.
public struct WebhookReplayResult: WireValue {
    public static let schemaName = "WebhookReplayResult"
    public var queued: Int

    public init(queued: Int) {
        self.queued = queued
    }
}

/// An endpoint's newest deliveries, newest first.
public struct WebhookDeliveryList: WireValue {
    public static let schemaName = "WebhookDeliveryList"

    public struct Delivery: Codable, Sendable, Equatable {
        public var id: String
        /// The event's id, the delivery's `webhook-id`.
        public var event: String
        @NullWhenAbsent public var type: String?
        /// `pending`, `delivered` or `failed`.
        public var state: String
        public var attempts: Int
        public var nextAttemptAt: Date
        @NullWhenAbsent public var lastStatus: Int?
        @NullWhenAbsent public var lastError: String?
        @NullWhenAbsent public var latencyMilliseconds: Int?
        /// The start of the receiver's last answer (at most 512 bytes).
        @NullWhenAbsent public var responseExcerpt: String?
        public var createdAt: Date
        @NullWhenAbsent public var settledAt: Date?

        public init(
            id: String, event: String, type: String?, state: String, attempts: Int, nextAttemptAt: Date, lastStatus: Int?,
            lastError: String?, latencyMilliseconds: Int?, responseExcerpt: String?, createdAt: Date, settledAt: Date?
        ) {
            self.id = id
            self.event = event
            self.type = type
            self.state = state
            self.attempts = attempts
            self.nextAttemptAt = nextAttemptAt
            self.lastStatus = lastStatus
            self.lastError = lastError
            self.latencyMilliseconds = latencyMilliseconds
            self.responseExcerpt = responseExcerpt
            self.createdAt = createdAt
            self.settledAt = settledAt
        }

        init(_ delivery: WebhookDelivery) {
            self.init(
                id: "whd_\(delivery.id)", event: delivery.eventID, type: delivery.eventType?.rawValue, state: delivery.state.rawValue,
                attempts: delivery.attempts, nextAttemptAt: delivery.nextAttemptAt, lastStatus: delivery.lastStatus, lastError: delivery.lastError,
                latencyMilliseconds: delivery.lastLatencyMilliseconds, responseExcerpt: delivery.responseExcerpt, createdAt: delivery.createdAt,
                settledAt: delivery.settledAt)
        }
    }

    public var deliveries: [Delivery]

    public init(deliveries: [Delivery]) {
        self.deliveries = deliveries
    }
}
