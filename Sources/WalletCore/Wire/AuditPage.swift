import Foundation
import WalletStore

/// One row of the audit trail as the admin API (`GET /api/v1/audit`) gives it.
public struct AuditRecord: Codable, Sendable, Equatable {
    /// Increasing as rows are appended (`aud_<n>`).
    public var id: String
    public var occurredAt: Date
    /// `key <id>`, `api` (the admin token), `console`, `template v3`, `hold`, `job <id>`, …
    public var actor: String
    /// `api`, `cli`, `console`, `system` or `wallet`.
    public var source: String
    /// The client's address, when the change came over the network.
    @NullWhenAbsent public var address: String?
    /// `pass.update`, `template.publish`, `key.revoke`, …
    public var action: String
    /// `pass <type>/<serial>`, `template <name>`, `key <id>`, `webhook <id>`, `job <id>`.
    public var target: String
    /// The names of what changed, never a value.
    public var changes: [String]

    public init(id: String, occurredAt: Date, actor: String, source: String, address: String?, action: String, target: String, changes: [String]) {
        self.id = id
        self.occurredAt = occurredAt
        self.actor = actor
        self.source = source
        self.address = address
        self.action = action
        self.target = target
        self.changes = changes
    }

    init(_ entry: AuditEntry) {
        self.init(
            id: "aud_\(entry.id)", occurredAt: entry.occurredAt, actor: entry.actor, source: entry.source.rawValue, address: entry.address,
            action: entry.action, target: entry.target, changes: entry.changes)
    }
}

/// A page of the audit trail, newest first; `next` (when there is more) is what to pass as `before`.
public struct AuditPage: WireValue {
    public static let schemaName = "AuditPage"

    public var entries: [AuditRecord]
    @NullWhenAbsent public var next: String?

    public init(entries: [AuditRecord], next: String?) {
        self.entries = entries
        self.next = next
    }
}
