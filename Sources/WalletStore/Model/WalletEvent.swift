import Foundation
import PassModel
import Storage

/// What kind of change an event records. The raw values are the wire names webhooks subscribe to.
public enum WalletEventType: String, Sendable, CaseIterable, Codable {
    /// A pass was issued.
    case passIssued = "pass.issued"
    /// A pass changed; the payload lists the changed keys.
    case passUpdated = "pass.updated"
    /// A pass was voided.
    case passVoided = "pass.voided"
    /// A holder's data was erased from a pass (it is voided, its record blanked; the serial stays).
    case passErased = "pass.erased"
    /// A device registered for a pass's updates (Wallet added it), the first device or a later one.
    case passInstalled = "pass.installed"
    /// A device unregistered (Wallet removed the pass); `allDevicesRemoved` when none is left.
    case passRemoved = "pass.removed"
    /// A push failed, with APNs's reason.
    case pushFailed = "push.failed"
    /// APNs said a device is gone (410 `Unregistered`, `BadDeviceToken`): its registration was removed.
    case deviceGone = "device.gone"
    /// A template version became current (uploaded, synced from its folder, or rolled back).
    case templatePublished = "template.published"
    /// Every pass of a template reached its current version.
    case rolloutFinished = "rollout.finished"
    /// A bulk issuing job finished: completed (with how many were issued and failed) or rejected.
    case jobFinished = "job.finished"
    /// An API key was created (its name and scopes; never the key).
    case keyCreated = "key.created"
    /// An API key got a new secret.
    case keyRotated = "key.rotated"
    /// An API key was revoked.
    case keyRevoked = "key.revoked"
    /// An order was created from an order template.
    case orderCreated = "order.created"
    /// An order changed (its status, fulfilments…); the payload lists the changed keys.
    case orderUpdated = "order.updated"
    /// The customer's data was erased from an order (only what Wallet requires stays); its devices
    /// are pushed so Wallet's copy loses it too.
    case orderErased = "order.erased"
    /// A device registered for an order's updates (Wallet added it).
    case orderInstalled = "order.installed"
    /// A device unregistered from an order; `allDevicesRemoved` when none is left.
    case orderRemoved = "order.removed"
}

/// An event to append, built by the write that makes the change, in its transaction.
public struct WalletEventDraft: Sendable {
    public var type: WalletEventType
    public var pass: PassKey?
    public var template: String?
    /// Who made the change: `api`, `console`, `device`, `apns`, `template vN`, … (the write's source).
    public var actor: String
    /// The event's own facts, never a secret, a token or a device identifier.
    public var payload: JSONObject

    public init(type: WalletEventType, pass: PassKey? = nil, template: String? = nil, actor: String, payload: JSONObject = [:]) {
        self.type = type
        self.pass = pass
        self.template = template
        self.actor = actor
        self.payload = payload
    }
}

/// Where a reader of the event log stands: the position of the last event it read, in commit order.
///
/// Opaque to readers (`GET /api/v1/events?after=`): on SQLite the event's id, on PostgreSQL the
/// writing transaction's id and the event's id (see ``WalletSchema/events``).
public struct EventCursor: Sendable, Hashable, CustomStringConvertible {
    let transaction: Int64
    let id: Int64

    /// The cursor before every event.
    public static let start = EventCursor(transaction: 0, id: 0)

    init(transaction: Int64, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    /// Reads a cursor a reader was given; `nil` for text that is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let transaction = Int64(parts[0]), let id = Int64(parts[1]), transaction >= 0, id >= 0 else { return nil }
        self.init(transaction: transaction, id: id)
    }

    public var description: String { "\(transaction)-\(id)" }
}

/// One event as the log holds it.
public struct WalletEvent: Sendable, Equatable {
    /// Unique, and increasing with the order events were appended in (`evt_<n>`).
    public let id: String
    /// Its position in commit order: pass it back as `after` to read on from here.
    public let cursor: EventCursor
    public let occurredAt: Date
    public let type: WalletEventType
    public let pass: PassKey?
    public let template: String?
    public let actor: String
    public let payload: JSONObject

    init(row: Row, engine: DatabaseEngine) throws {
        let number = try row.int64("id")
        id = "evt_\(number)"
        cursor = EventCursor(transaction: engine == .postgres ? try row.int64("tx") : number, id: number)
        occurredAt = Milliseconds.date(try row.int64("occurred_at"))
        let typeName = try row.string("type")
        guard let type = WalletEventType(rawValue: typeName) else { throw StorageError.column(name: "type", reason: "unknown event type '\(typeName)'") }
        self.type = type
        if let passType = try row.optionalString("pass_type_identifier"), let serial = try row.optionalString("serial_number") {
            pass = PassKey(passTypeIdentifier: passType, serialNumber: serial)
        } else {
            pass = nil
        }
        template = try row.optionalString("template")
        actor = try row.string("actor")
        guard case .object(let object) = try JSONValue.parse(Data(try row.string("payload").utf8)) else {
            throw StorageError.column(name: "payload", reason: "not a JSON object")
        }
        payload = object
    }
}
