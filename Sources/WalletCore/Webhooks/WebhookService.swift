import Foundation
import Signing
import WalletStore

/// Webhook endpoints as the admin API manages them: created with a secret shown once, changed,
/// rotated with an overlap, replayed, and their deliveries listed. Secrets are sealed before they
/// reach the store (``SecretBox``, keyed from the server's link key).
public struct WebhookService: Sendable {
    let store: WalletStore
    let box: SecretBox

    /// What an endpoint is created with.
    public struct Subscription: Sendable {
        public var url: String
        public var description: String
        /// Event type names; `nil` (or `["*"]`) for all.
        public var types: [String]?
        /// Template names; `nil` for all.
        public var templates: [String]?

        public init(url: String, description: String = "", types: [String]? = nil, templates: [String]? = nil) {
            self.url = url
            self.description = description
            self.types = types
            self.templates = templates
        }
    }

    /// Every event type an endpoint may subscribe to, by its wire name.
    public static var eventTypeNames: [String] { WalletEventType.allCases.map(\.rawValue) }

    public func create(_ subscription: Subscription, origin: APICaller.Origin) async throws -> WebhookCreated {
        let url = try WebhookDestination.check(subscription.url)
        let secret = WebhookSignature.newSecret()
        let endpoint = try await store.createWebhookEndpoint(NewWebhookEndpoint(
            id: "whep_" + SecureRandom.token(length: 20), url: url.absoluteString, description: subscription.description,
            eventTypes: try Self.types(subscription.types), templates: try Self.templates(subscription.templates),
            sealedSecret: box.seal(Data(secret.utf8))), origin: origin)
        return WebhookCreated(webhook: WebhookEndpointDetails(endpoint, now: store.clock.now()), secret: secret)
    }

    public func list() async throws -> WebhookList {
        let now = store.clock.now()
        return WebhookList(webhooks: try await store.webhookEndpoints().map { WebhookEndpointDetails($0, now: now) })
    }

    public func endpoint(_ id: String) async throws -> WebhookEndpointDetails? {
        try await store.webhookEndpoint(id).map { WebhookEndpointDetails($0, now: store.clock.now()) }
    }

    /// What a change may carry; `nil` members stay as they are. `templates: .some(nil)` means all.
    public struct Change: Sendable {
        public var url: String?
        public var description: String?
        public var types: [String]??
        public var templates: [String]??
        public var enabled: Bool?

        public init(url: String? = nil, description: String? = nil, types: [String]?? = nil, templates: [String]?? = nil, enabled: Bool? = nil) {
            self.url = url
            self.description = description
            self.types = types
            self.templates = templates
            self.enabled = enabled
        }
    }

    public func update(_ id: String, _ change: Change, origin: APICaller.Origin) async throws -> WebhookEndpointDetails? {
        let url = try change.url.map { try WebhookDestination.check($0).absoluteString }
        let types: Set<WalletEventType>?? = try change.types.map { try Self.types($0) }
        let templates: Set<String>?? = try change.templates.map { try Self.templates($0) }
        return try await store.updateWebhookEndpoint(
            id, url: url, description: change.description, eventTypes: types, templates: templates, enabled: change.enabled, origin: origin
        ).map { WebhookEndpointDetails($0, now: store.clock.now()) }
    }

    public func delete(_ id: String, origin: APICaller.Origin) async throws -> Bool {
        try await store.deleteWebhookEndpoint(id, origin: origin)
    }

    /// A new secret, shown this once; the old one signs beside it for `overlap`.
    public func rotateSecret(_ id: String, overlap: Duration, origin: APICaller.Origin) async throws -> WebhookSecret? {
        let secret = WebhookSignature.newSecret()
        let until = store.clock.now().addingTimeInterval(Double(overlap.components.seconds))
        guard try await store.rotateWebhookSecret(id, sealed: box.seal(Data(secret.utf8)), previousUntil: until, origin: origin) != nil else { return nil }
        return WebhookSecret(secret: secret, previousValidUntil: until)
    }

    /// Queues the endpoint's events since `since`, or one event by its id (`evt_<n>`), again.
    public func replay(_ id: String, since: Date?, event: String?, origin: APICaller.Origin) async throws -> WebhookReplayResult? {
        guard try await store.webhookEndpoint(id) != nil else { return nil }
        var number: Int64?
        if let event {
            guard event.hasPrefix("evt_"), let parsed = Int64(event.dropFirst(4)) else { throw ServiceError.invalid("event '\(event)' is not an event id (evt_<n>)") }
            number = parsed
        }
        guard since != nil || number != nil else { throw ServiceError.invalid("give since (a time) or event (an event id) to replay") }
        return WebhookReplayResult(queued: try await store.replayWebhookDeliveries(endpoint: id, since: since, event: number, origin: origin))
    }

    public func deliveries(_ id: String, limit: Int = 50) async throws -> WebhookDeliveryList? {
        guard try await store.webhookEndpoint(id) != nil else { return nil }
        return WebhookDeliveryList(deliveries: try await store.webhookDeliveries(endpoint: id, limit: limit).map(WebhookDeliveryList.Delivery.init))
    }

    /// Endpoints whose deliveries stopped, with why: for `/readyz`'s details and the console.
    public func disabled() async throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try await store.webhookEndpoints().filter { !$0.enabled }.map { ($0.id, $0.disabledReason ?? "disabled") })
    }

    /// The secrets that sign a delivery now: the current one, and the previous one during its overlap.
    func secrets(of endpoint: WebhookEndpoint, now: Date) -> [String] {
        var secrets = [box.open(endpoint.sealedSecret)].compactMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
        if let previous = endpoint.previousSealedSecret, let until = endpoint.previousSecretUntil, until > now, let opened = box.open(previous) {
            secrets.append(String(decoding: opened, as: UTF8.self))
        }
        return secrets
    }

    static func types(_ names: [String]?) throws(ServiceError) -> Set<WalletEventType>? {
        guard let names, !names.contains("*") else { return nil }
        guard !names.isEmpty else { throw .invalid("types must name at least one event type, or be [\"*\"] for all") }
        var types: Set<WalletEventType> = []
        for name in names {
            guard let type = WalletEventType(rawValue: name) else {
                throw .invalid("types: '\(name)' is not an event type; use one of \(WalletEventType.allCases.map(\.rawValue).joined(separator: ", ")) or *")
            }
            types.insert(type)
        }
        return types
    }

    static func templates(_ names: [String]?) throws(ServiceError) -> Set<String>? {
        guard let names else { return nil }
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && !$0.contains(",") }) else {
            throw .invalid("templates must be template names (no commas), or null for all")
        }
        return Set(names)
    }
}
