import Foundation
import Storage

/// The audit trail: who changed what, from where. Each audited write appends its rows in its own
/// transaction (so a row exists exactly when the change does), read newest first with filters and
/// an id cursor, pruned by age.
extension WalletStore {
    /// The most rows one page returns.
    public static let maximumAuditPage = 500

    /// Rows per multi-row `INSERT` (7 values a row), within both engines' parameter limits: a bulk
    /// job's batch of 200 issued passes is audited with one statement.
    private static let auditInsertBatch = 500

    /// Appends `drafts` by `origin` in the caller's transaction, with its next statement (the rows
    /// are new and nothing reads their result: ``Transaction/executeLater(_:)``).
    func appendAudit(_ drafts: [AuditDraft], by origin: WriteOrigin, at now: Int64, in transaction: Transaction) async throws {
        for batch in drafts.batches(of: Self.auditInsertBatch) {
            var parameters: [SQLValue] = []
            for draft in batch {
                parameters += [
                    .integer(now), .text(origin.actor), .text(origin.source.rawValue), origin.address.map(SQLValue.text) ?? .null,
                    .text(draft.action), .text(draft.target), .text(Self.changesText(draft.changes)),
                ]
            }
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            try await transaction.executeLater(SQL(unsafeText: """
                INSERT INTO audit_log (occurred_at, actor, source, address, action, target, changes) VALUES \(SQL.list("(?, ?, ?, ?, ?, ?, ?)", count: batch.count))
                """, parameters: parameters))
        }
    }

    /// Appends `drafts` in a transaction of their own: an audited act that changes nothing else
    /// (a sign-in, a refused one).
    public func appendAudit(_ drafts: [AuditDraft], by origin: WriteOrigin) async throws {
        guard !drafts.isEmpty else { return }
        let now = clock.nowMilliseconds()
        try await storing("append to the audit trail") {
            try await database.transaction { transaction in try await self.appendAudit(drafts, by: origin, at: now, in: transaction) }
        }
    }

    /// Up to `limit` rows matching `filter` with ids below `before` (all when `nil`), newest first.
    public func auditEntries(_ filter: AuditFilter, before: Int64? = nil, limit: Int = 100) async throws -> [AuditEntry] {
        // One past the page size is allowed: readers ask for one more to learn whether there is more.
        let limit = min(max(limit, 1), Self.maximumAuditPage + 1)
        var conditions: [String] = []
        var parameters: [SQLValue] = []
        func narrow(_ condition: String, _ value: SQLValue?) {
            guard let value else { return }
            conditions.append(condition)
            parameters.append(value)
        }
        narrow("id < ?", before.map(SQLValue.integer))
        narrow("actor = ?", filter.actor.map(SQLValue.text))
        narrow("action = ?", filter.action.map(SQLValue.text))
        narrow("target = ?", filter.target.map(SQLValue.text))
        narrow("source = ?", filter.source.map { .text($0.rawValue) })
        narrow("occurred_at >= ?", filter.since.map { .integer(Milliseconds.of($0)) })
        narrow("occurred_at < ?", filter.until.map { .integer(Milliseconds.of($0)) })
        parameters.append(.integer(Int64(limit)))
        let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try await storing("read the audit trail") {
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            try await database.query(SQL(
                unsafeText: "SELECT \(AuditEntry.columns) FROM audit_log \(condition) ORDER BY id DESC LIMIT ?", parameters: parameters
            )).map(AuditEntry.init(row:))
        }
    }

    /// Deletes up to `limit` rows older than `cutoff`, oldest first; returns how many.
    public func pruneAudit(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        try await storing("prune the audit trail") {
            try await database.execute(SQL(
                "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE occurred_at < ? ORDER BY occurred_at LIMIT ?)",
                .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }
}
