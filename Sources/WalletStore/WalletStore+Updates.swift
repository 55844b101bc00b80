import Foundation
import PassModel
import Storage

/// The write path shared by single and template-wide updates: tag, rows, pushes, in the caller's
/// transaction, on rows the caller has locked and whose tags it has checked (``writePasses(_:)``).
extension WalletStore {
    /// Rows per multi-row `UPDATE`, well under both engines' parameter limits (7 values a row).
    private static let updateBatchSize = 200

    /// The transaction-scoped PostgreSQL advisory lock serializing tag allocation ("PassTags").
    static let updateTagLock: Int64 = 5_792_037_534_949_271_411

    /// Writes the changes that alter their pass under one new tag, records each in the pass's history,
    /// the event log and the audit trail, and queues their pushes; returns the passes as written and
    /// the number of outbox rows queued or coalesced.
    ///
    /// The event log and the audit trail are appended before the tag is drawn: they only add rows
    /// and name no tag, so on PostgreSQL the tags' lock, which every writer of a pass waits for,
    /// covers only what needs the tag (the rows, their history), the counters and the pushes, and
    /// two writes (two batches of a roll-out) do the rest at once. The pushes stay under the lock
    /// although they name no tag: each write upserts its devices' outbox rows in its own pass order,
    /// which two writes at once can take in opposite orders (queued before the lock, two pages of a
    /// roll-out deadlocked; BENCHMARKS.md).
    ///
    /// The tag is drawn by the database with the statements that name it, in one round trip with
    /// them (``drawTagLater(_:)``), and read back by the last of them: on PostgreSQL the lock is
    /// then held for the statements' own work and the commit's round trip, not also for a round
    /// trip to learn the tag and another to wake the push workers.
    func apply(
        _ changes: [(pass: StoredPass, change: PassChange?, origin: WriteOrigin, erases: Bool)], in transaction: Transaction
    ) async throws -> (passes: [StoredPass], pushesQueued: Int) {
        let altering = changes.compactMap { pass, change, origin, erases in change.flatMap { $0.alters(pass) ? (pass, $0, origin, erases) : nil } }
        guard !altering.isEmpty else { return ([], 0) }
        let now = clock.nowMilliseconds()
        // A scan of the texts per pass (no parse tree): microseconds, unlike the rendering kept outside.
        let records = altering.map { pass, change, origin, erases in
            AppliedChange(
                rewrite: PassRewrite(pass, applying: change, updatedAt: Self.nextModification(after: pass.updatedAtMilliseconds, now: now)),
                origin: origin, fields: Self.changedFields(of: pass, by: change), erases: erases)
        }
        let counts = try await self.insertEvents(records.map { record in
            WalletEventDraft(
                type: record.erases ? .passErased : record.voids ? .passVoided : .passUpdated, pass: record.key, template: record.template,
                actor: record.origin.actor,
                payload: ["changes": .array(record.fields.map(JSONValue.string)), "templateVersion": .number(Double(record.templateVersion))])
        }, at: now, in: transaction)
        // One writer's batch has one origin; a batch of several is audited per origin.
        for (origin, group) in Dictionary(grouping: records, by: \.origin) {
            try await self.appendAudit(group.map { record in
                let action = record.erases ? "pass.erase" : record.voids ? "pass.void" : "pass.update"
                return AuditDraft(action: action, target: AuditDraft.pass(record.key), changes: record.fields)
            }, by: origin, at: now, in: transaction)
        }

        try await Self.drawTagLater(transaction)
        let rewrites = records.map(\.rewrite)
        for batch in rewrites.batches(of: Self.updateBatchSize) {
            try await Self.write(batch, in: transaction)
        }
        // An erasure leaves no history (``eraseTraces(of:at:in:)``), so none is written for it.
        try await Self.recordUpdates(records.filter { !$0.erases }.map { ($0.key, $0.origin.actor, $0.fields) }, at: now, in: transaction)
        try await self.addRollups(counts, at: now, in: transaction)
        let (queued, tag) = try await Self.enqueuePushesReadingTag(rewrites.map(\.pass.key), now: now, in: transaction)
        return (rewrites.map { StoredPass($0, updateTag: tag) }, queued)
    }

    /// What one altering change does to its pass, as the event log and the audit trail name it.
    private struct AppliedChange {
        /// The pass as the change leaves it: its new version and `voided` are the rewrite's, merged once.
        var rewrite: PassRewrite
        var origin: WriteOrigin
        /// The top-level keys the change sets to a new value.
        var fields: [String]
        var erases: Bool
        var key: PassKey { rewrite.pass.key }
        var template: String { rewrite.pass.template }
        var templateVersion: Int64 { rewrite.templateVersion }
        /// Whether the change voided the pass (a change of `voided` that left it voided).
        var voids: Bool { fields.contains("voided") && rewrite.voided }
    }

    /// The next update tag, strictly greater than every tag of a committed change.
    ///
    /// On PostgreSQL a sequence alone is not enough: two transactions can draw 10 and 11 and commit
    /// 11 first, and a device that read `lastUpdated` 11 in between would never hear of 10. The
    /// advisory lock, held until commit, makes tags commit in order; it is taken just before the
    /// writes, so the lock is held only for them. On SQLite the single writer already serializes.
    static func nextUpdateTag(_ transaction: Transaction) async throws -> Int64 {
        let rows: [Row]
        switch transaction.engine {
        case .postgres:
            // One round trip: the CTE's row, and so the lock, comes before the tag drawn for it.
            rows = try await transaction.query(SQL(
                "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(?::bigint)) SELECT nextval('update_tag_sequence') AS tag FROM locked",
                .integer(updateTagLock)))
        case .sqlite:
            rows = try await transaction.query(SQL("UPDATE update_tag_counter SET value = value + 1 WHERE id = 1 RETURNING value AS tag"))
        }
        return try rows[0].int64("tag")
    }

    /// Takes the tags' lock until the transaction ends, drawing no tag: on PostgreSQL, for a write
    /// that must not commit between a writer's tag and its commit. (SQLite's single writer already
    /// keeps them apart.)
    static func lockTags(_ transaction: Transaction) async throws {
        guard transaction.engine == .postgres else { return }
        _ = try await transaction.query(SQL("SELECT pg_advisory_xact_lock(?::bigint)", .integer(updateTagLock)))
    }

    /// The modification time of a change at `now`: at least the next whole second after `previous`,
    /// because `Last-Modified` / `If-Modified-Since` compare whole seconds and a second change within
    /// the same second would otherwise be answered 304.
    static func nextModification(after previous: Int64, now: Int64) -> Int64 {
        max(now, (previous / 1_000 + 1) * 1_000)
    }

    /// Draws the transaction's update tag with its next statement (``Transaction/executeLater(_:)``):
    /// the statements that follow name it as ``drawnTag(_:)``. On PostgreSQL the tags' lock is taken
    /// first, in the same statement (``nextUpdateTag(_:)`` says why).
    static func drawTagLater(_ transaction: Transaction) async throws {
        switch transaction.engine {
        case .postgres:
            try await transaction.executeLater(SQL(
                "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(?::bigint)) SELECT nextval('update_tag_sequence') FROM locked",
                .integer(updateTagLock)))
        case .sqlite:
            try await transaction.executeLater(SQL("UPDATE update_tag_counter SET value = value + 1 WHERE id = 1"))
        }
    }

    /// The tag ``drawTagLater(_:)`` drew, as an SQL expression: the session's last value of the
    /// sequence on PostgreSQL, the counter on SQLite (whose one writer holds it until commit). Only
    /// for statements after the draw in the same transaction: before it, on a pooled PostgreSQL
    /// connection, `currval` is an earlier transaction's tag.
    static func drawnTag(_ engine: DatabaseEngine) -> String {
        switch engine {
        case .postgres: "currval('update_tag_sequence')"
        case .sqlite: "(SELECT value FROM update_tag_counter WHERE id = 1)"
        }
    }

    /// Writes one batch of rewritten passes with one statement, under the drawn tag, with the
    /// transaction's next (nothing reads its result: the rows are the ones the caller locked).
    private static func write(_ rewrites: ArraySlice<PassRewrite>, in transaction: Transaction) async throws {
        var parameters: [SQLValue] = []
        for rewrite in rewrites {
            parameters += [
                .text(rewrite.pass.key.passTypeIdentifier), .text(rewrite.pass.key.serialNumber), .text(rewrite.data), .text(rewrite.overrides),
                .integer(rewrite.voided ? 1 : 0), .integer(rewrite.updatedAt), .integer(rewrite.templateVersion),
                .integer(rewrite.expiry == nil ? 0 : 1), (rewrite.expiry ?? nil).map { .integer(Milliseconds.of($0)) } ?? .null,
            ]
        }
        let rows = SQL.list("(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rewrites.count)
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        try await transaction.executeLater(SQL(unsafeText: """
            WITH changed (pass_type_identifier, serial_number, data, overrides, voided, updated_at, template_version, expiry_given, expires_at)
            AS (VALUES \(rows))
            UPDATE passes SET
                data = changed.data,
                overrides = changed.overrides,
                voided = CAST(changed.voided AS BOOLEAN),
                updated_at = CAST(changed.updated_at AS BIGINT),
                template_version = CAST(changed.template_version AS BIGINT),
                expires_at = CASE WHEN CAST(changed.expiry_given AS BIGINT) = 1 THEN CAST(changed.expires_at AS BIGINT) ELSE passes.expires_at END,
                update_tag = \(drawnTag(transaction.engine))
            FROM changed
            WHERE passes.pass_type_identifier = changed.pass_type_identifier AND passes.serial_number = changed.serial_number
            """, parameters: parameters))
    }

    /// Queues the pushes of the passes a write changed (``enqueuePushes(_:now:in:)``) and reads the
    /// tag it drew: on PostgreSQL one statement, which also wakes the push workers when it queued a
    /// push, so the round trip that sends the write's statements is the only one before its commit.
    static func enqueuePushesReadingTag(_ keys: [PassKey], now: Int64, in transaction: Transaction) async throws -> (queued: Int, tag: Int64) {
        switch transaction.engine {
        case .postgres:
            guard let statement = pushesReadingTagStatement(keys, now: now) else {
                let rows = try await transaction.query(SQL(unsafeText: "SELECT \(drawnTag(.postgres)) AS tag"))
                return (0, try rows[0].int64("tag"))
            }
            let rows = try await transaction.query(statement)
            return (Int(try rows[0].int64("queued")), try rows[0].int64("tag"))
        case .sqlite:
            var queued = 0
            for batch in keys.batches(of: Self.updateBatchSize) {
                queued += try await enqueuePushes(.passes(Array(batch)), now: now, in: transaction)
            }
            let rows = try await transaction.query(SQL(unsafeText: "SELECT \(drawnTag(.sqlite)) AS tag"))
            return (queued, try rows[0].int64("tag"))
        }
    }

    /// PostgreSQL's statement of ``enqueuePushesReadingTag(_:now:in:)``: the upsert of
    /// ``enqueueStatement(_:now:)`` as a `WITH` query, the count of rows it queued, the drawn tag, and
    /// a notification to every instance's push worker when it queued any (sent at commit, never on
    /// rollback). `nil` when no key is given.
    static func pushesReadingTagStatement(_ keys: [PassKey], now: Int64) -> SQL? {
        guard let upsert = enqueueParts(.passes(keys), now: now), let with = upsert.with else { return nil }
        // Only fixed fragments are concatenated; every value is a parameter.
        return SQL(unsafeText: """
            \(with),
            queued AS (\(upsert.insert) RETURNING 1),
            counted AS (SELECT count(*) AS queued FROM queued)
            SELECT queued, \(drawnTag(.postgres)) AS tag, (SELECT pg_notify(?, '') WHERE queued > 0) IS NULL AS silent FROM counted
            """, parameters: upsert.parameters + [.text(outboxChannel)])
    }

    /// Which documents' registered devices get a push.
    enum PushSelection {
        /// These passes, by their keys: the ones a write just changed (there is no index on the
        /// update tag, which a roll-out would write again for every pass it moves), or one an
        /// operator pushes again.
        case passes([PassKey])
        /// One order: its APNs topic is its order type identifier, kept in the outbox's
        /// `pass_type_identifier` column (the topic), so orders share the outbox, its coalescing,
        /// retries and 410 handling.
        case order(OrderKey)
    }

    /// Upserts one outbox row per registered device of the selected documents, coalesced per device
    /// and topic: a waiting row is due at the earlier time with its attempts reset; a row in flight
    /// keeps its claim and attempts, and its bumped generation stops the completion from deleting it,
    /// so the device gets another push for this change.
    static func enqueuePushes(_ selection: PushSelection, now: Int64, in transaction: Transaction) async throws -> Int {
        guard let statement = enqueueStatement(selection, now: now) else { return 0 }
        let queued = try await transaction.execute(statement)
        if queued > 0 && transaction.engine == .postgres {
            // Delivered when the transaction commits (never if it rolls back), to every instance's
            // listener, this one's included.
            _ = try await transaction.query(SQL("SELECT pg_notify(?, '')", .text(outboxChannel)))
        }
        return queued
    }

    /// The statement of ``enqueuePushes(_:now:in:)``, on its own so tests can ask each engine for its
    /// plan; `nil` when nothing is selected.
    static func enqueueStatement(_ selection: PushSelection, now: Int64) -> SQL? {
        guard let upsert = enqueueParts(selection, now: now) else { return nil }
        // Only fixed fragments are concatenated; every value is a parameter.
        return SQL(unsafeText: (upsert.with.map { $0 + "\n" } ?? "") + upsert.insert, parameters: upsert.parameters)
    }

    /// ``enqueueStatement(_:now:)`` in its parts, so that a statement of PostgreSQL's can run the
    /// upsert as one of its own `WITH` queries (``enqueuePushesReadingTag(_:now:in:)``).
    struct OutboxUpsert {
        /// The `WITH` clause naming the selected documents, if the selection needs one.
        var with: String?
        /// The `INSERT … ON CONFLICT` itself.
        var insert: String
        /// The values of both, in the order of their placeholders.
        var parameters: [SQLValue]
    }

    private static func enqueueParts(_ selection: PushSelection, now: Int64) -> OutboxUpsert? {
        let selected: String?, source: String
        let selectedParameters: [SQLValue], parameters: [SQLValue]
        switch selection {
        case .passes(let keys):
            guard !keys.isEmpty else { return nil }
            // The keys drive the join, each a search of `registrations_pass`: as `IN (VALUES …)` SQLite
            // scanned every registration instead (TemplatePagePlanTests).
            selected = "WITH selected (pass_type_identifier, serial_number) AS (VALUES \(SQL.list("(?, ?)", count: keys.count)))"
            selectedParameters = keys.flatMap { [SQLValue.text($0.passTypeIdentifier), .text($0.serialNumber)] }
            source = """
                SELECT registrations.device_library_identifier, registrations.pass_type_identifier, devices.push_token,
                       1, CAST(? AS BIGINT), 0, CAST(? AS BIGINT)
                FROM selected
                JOIN registrations ON registrations.pass_type_identifier = selected.pass_type_identifier
                                  AND registrations.serial_number = selected.serial_number
                JOIN devices ON devices.device_library_identifier = registrations.device_library_identifier
                WHERE TRUE
                \(Self.inPassOrder)
                """
            parameters = []
        case .order(let key):
            selected = nil
            selectedParameters = []
            source = """
                SELECT DISTINCT order_registrations.device_library_identifier, order_registrations.order_type_identifier, devices.push_token,
                       1, CAST(? AS BIGINT), 0, CAST(? AS BIGINT)
                FROM order_registrations
                JOIN devices ON devices.device_library_identifier = order_registrations.device_library_identifier
                WHERE order_registrations.order_type_identifier = ? AND order_registrations.order_identifier = ?
                """
            parameters = [.text(key.orderTypeIdentifier), .text(key.orderIdentifier)]
        }
        return OutboxUpsert(
            with: selected,
            insert: """
                INSERT INTO push_outbox (device_library_identifier, pass_type_identifier, push_token, generation, enqueued_at,
                                         attempts, next_attempt_at)
                \(source)
                ON CONFLICT (device_library_identifier, pass_type_identifier) DO UPDATE SET
                    push_token = excluded.push_token,
                    generation = push_outbox.generation + 1,
                    enqueued_at = CASE WHEN push_outbox.claimed_by IS NULL THEN push_outbox.enqueued_at ELSE excluded.enqueued_at END,
                    attempts = CASE WHEN push_outbox.claimed_by IS NULL THEN 0 ELSE push_outbox.attempts END,
                    last_error = CASE WHEN push_outbox.claimed_by IS NULL THEN NULL ELSE push_outbox.last_error END,
                    next_attempt_at = CASE WHEN excluded.next_attempt_at < push_outbox.next_attempt_at
                                           THEN excluded.next_attempt_at ELSE push_outbox.next_attempt_at END
                """,
            parameters: selectedParameters + [.integer(now), .integer(now)] + parameters)
    }

    /// One row per device and type, inserted (so claimed) in the order of the passes they hold: the
    /// devices of one pass get adjacent outbox rows, so the push worker signs the pass once for all of
    /// them and they fetch it while it is in the archive cache. In device order instead, a pass's
    /// second device came half a wave after its first, long after the cache had let the archive go
    /// (fleet benchmark: 1.46 signatures per refreshed pass with signing ahead).
    private static let inPassOrder = """
        GROUP BY registrations.device_library_identifier, registrations.pass_type_identifier, devices.push_token
        ORDER BY MIN(registrations.serial_number)
        """
}
