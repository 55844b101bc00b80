import Foundation
import PassModel
import Storage

/// What one audited write did: appended by the write itself, in its transaction, with the write's
/// ``WriteOrigin``.
public struct AuditDraft: Sendable, Hashable {
    /// What was done, `noun.verb`: `pass.update`, `template.publish`, `key.revoke`, `signin.failed`…
    public var action: String
    /// What it was done to: `pass <type>/<serial>`, `template <name>`, `key <id>`, `webhook <id>`…
    public var target: String
    /// The names of what changed (`data.points`, `scopes`), never a value: an audit row must not hold
    /// a holder's data or a secret.
    public var changes: [String]

    public init(action: String, target: String, changes: [String] = []) {
        self.action = action
        self.target = target
        self.changes = changes
    }

    /// The target naming the pass `key`.
    public static func pass(_ key: PassKey) -> String { "pass \(key.passTypeIdentifier)/\(key.serialNumber)" }

    /// The target naming the order `key`.
    public static func order(_ key: OrderKey) -> String { "order \(key)" }
}

/// One row of the audit trail.
public struct AuditEntry: Sendable, Hashable {
    /// Increasing in the order rows were appended; pages go newest first, `before` an id.
    public let id: Int64
    public let occurredAt: Date
    public let actor: String
    public let source: WriteOrigin.Source
    public let address: String?
    public let action: String
    public let target: String
    public let changes: [String]

    static let columns = "id, occurred_at, actor, source, address, action, target, changes"

    init(row: Row) throws {
        id = try row.int64("id")
        occurredAt = Milliseconds.date(try row.int64("occurred_at"))
        actor = try row.string("actor")
        let sourceName = try row.string("source")
        guard let source = WriteOrigin.Source(rawValue: sourceName) else { throw StorageError.column(name: "source", reason: "unknown source '\(sourceName)'") }
        self.source = source
        address = try row.optionalString("address")
        action = try row.string("action")
        target = try row.string("target")
        changes = (try? JSONDecoder().decode([String].self, from: Data(try row.string("changes").utf8))) ?? []
    }
}

/// Which audit rows to read: each field narrows, `nil` does not.
public struct AuditFilter: Sendable, Hashable {
    public var actor: String?
    public var action: String?
    /// A whole target: `pass <type>/<serial>`, `template <name>`…
    public var target: String?
    public var source: WriteOrigin.Source?
    public var since: Date?
    public var until: Date?

    public init(actor: String? = nil, action: String? = nil, target: String? = nil, source: WriteOrigin.Source? = nil, since: Date? = nil, until: Date? = nil) {
        self.actor = actor
        self.action = action
        self.target = target
        self.source = source
        self.since = since
        self.until = until
    }
}
