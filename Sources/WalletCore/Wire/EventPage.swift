import Foundation
import PassModel
import WalletStore

/// One event as the admin API (`GET /api/v1/events`) and webhooks deliver it.
public struct Event: Codable, Sendable, Equatable {
    /// Unique across the log, increasing as events are appended (`evt_<n>`): a webhook's `webhook-id`.
    public var id: String
    /// `pass.issued`, `pass.updated`, … (``WalletEventType``).
    public var type: String
    public var occurredAt: Date
    @NullWhenAbsent public var passTypeIdentifier: String?
    @NullWhenAbsent public var serialNumber: String?
    @NullWhenAbsent public var template: String?
    /// Who made the change: `api`, `console`, `device`, `apns`, `template vN`, …
    public var actor: String
    /// The version of `data`'s shape; it grows when a type's data changes incompatibly.
    public var version: Int
    /// The facts of this event type; never a secret, a token or a device identifier.
    public var data: JSONObject

    /// The shape of every event's `data` today.
    public static let currentVersion = 1

    public init(
        id: String, type: String, occurredAt: Date, passTypeIdentifier: String?, serialNumber: String?, template: String?,
        actor: String, version: Int = Event.currentVersion, data: JSONObject
    ) {
        self.id = id
        self.type = type
        self.occurredAt = occurredAt
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.template = template
        self.actor = actor
        self.version = version
        self.data = data
    }

    init(_ event: WalletEvent) {
        id = event.id
        type = event.type.rawValue
        occurredAt = event.occurredAt
        passTypeIdentifier = event.pass?.passTypeIdentifier
        serialNumber = event.pass?.serialNumber
        template = event.template
        actor = event.actor
        version = Self.currentVersion
        data = event.payload
    }
}

/// A page of the event log, oldest first; `next` is the cursor to ask for the following page with.
public struct EventPage: WireValue {
    public static let schemaName = "EventPage"

    public var events: [Event]
    /// Pass it as `after` to read on: the position of the last event here, or the `after` asked
    /// with when the page is empty (so a consumer can keep polling with it).
    public var next: String
    /// Whether more events were already there when this page was read.
    public var hasMore: Bool

    public init(events: [Event], next: String, hasMore: Bool) {
        self.events = events
        self.next = next
        self.hasMore = hasMore
    }
}
