import Foundation
import WalletStore

/// The audit trail as the admin API and the console read it, and its retention.
public struct AuditService: Sendable {
    let store: WalletStore
    /// How long rows are kept.
    public let retention: Duration

    /// What a reader may narrow a page by, as given (text); ``page(_:before:limit:)`` checks it.
    public struct Query: Sendable {
        public var actor: String?
        public var action: String?
        public var target: String?
        public var source: String?
        public var since: Date?
        public var until: Date?

        public init(actor: String? = nil, action: String? = nil, target: String? = nil, source: String? = nil, since: Date? = nil, until: Date? = nil) {
            (self.actor, self.action, self.target, self.source, self.since, self.until) = (actor, action, target, source, since, until)
        }
    }

    /// The newest `limit` rows matching `query` before the row `before` (`aud_<n>`, from a page's
    /// `next`). An unreadable cursor, source or limit is a `ServiceError.invalid` naming it.
    public func page(_ query: Query, before: String?, limit: Int) async throws -> AuditPage {
        var cursor: Int64?
        if let before {
            guard before.hasPrefix("aud_"), let number = Int64(before.dropFirst(4)), number > 0 else {
                throw ServiceError.invalid("before '\(before)' is not an audit row id (aud_<n>, a page's next)")
            }
            cursor = number
        }
        var source: WriteOrigin.Source?
        if let name = query.source {
            guard let parsed = WriteOrigin.Source(rawValue: name) else {
                throw ServiceError.invalid("source '\(name)' is not one of \(WriteOrigin.Source.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            source = parsed
        }
        guard (1...WalletStore.maximumAuditPage).contains(limit) else {
            throw ServiceError.invalid("limit must be 1 to \(WalletStore.maximumAuditPage), not \(limit)")
        }
        let filter = AuditFilter(actor: query.actor, action: query.action, target: query.target, source: source, since: query.since, until: query.until)
        // One more than asked for tells whether there is more.
        let entries = try await store.auditEntries(filter, before: cursor, limit: limit + 1)
        let page = entries.prefix(limit).map(AuditRecord.init)
        return AuditPage(entries: page, next: entries.count > limit ? page.last?.id : nil)
    }

    /// Records an audited act that changes nothing else: a sign-in, a refused sign-in, a sign-out.
    public func record(_ action: String, target: String, origin: APICaller.Origin) async throws {
        try await store.appendAudit([AuditDraft(action: action, target: target)], by: origin)
    }

    /// Deletes rows older than the retention, a batch at a time; returns how many.
    public func prune(now: Date = Date(), batch: Int = 1_000) async throws -> Int {
        let cutoff = now.addingTimeInterval(-Double(retention.components.seconds))
        return try await RetentionWorker.pruneInBatches(of: batch) { try await store.pruneAudit(before: cutoff, limit: $0) }
    }
}
