import Foundation
import PassModel
import Storage

/// The event log: appended by the writes themselves, in their transactions, so an event is never lost
/// nor invented; read in commit order with a cursor; pruned by age.
extension WalletStore {
    /// The most events one page returns.
    public static let maximumEventPage = 1_000

    /// Rows per multi-row `INSERT` (7 values a row), within both engines' parameter limits: a bulk
    /// job's batch of 200 issued passes is logged with one statement.
    private static let eventInsertBatch = 500

    /// Appends `drafts` in the caller's transaction, in order, queues their webhook deliveries and
    /// adds them to the analytics counters (``rollups(of:)``).
    func appendEvents(_ drafts: [WalletEventDraft], at now: Int64, in transaction: Transaction) async throws {
        try await addRollups(insertEvents(drafts, at: now, in: transaction), at: now, in: transaction)
    }

    /// Appends `drafts` in the caller's transaction, in order, and queues their webhook deliveries,
    /// but leaves the counting to the caller: returns the counts to add (``addRollups(_:at:in:)``).
    ///
    /// The rows it writes are new rows only, so it takes no lock another writer waits on: a pass
    /// write runs it before it takes the tags' lock, which then covers less (two of a roll-out's
    /// batches overlap here), and still adds its counts under that lock, as every writer of the
    /// counters that holds the lock does: their row locks stay in one order.
    func insertEvents(_ drafts: [WalletEventDraft], at now: Int64, in transaction: Transaction) async throws -> [RollupKey: Int] {
        var counts: [RollupKey: Int] = [:]
        for batch in drafts.batches(of: Self.eventInsertBatch) {
            var parameters: [SQLValue] = []
            for draft in batch {
                parameters += [
                    .integer(now), .text(draft.type.rawValue),
                    draft.pass.map { .text($0.passTypeIdentifier) } ?? .null, draft.pass.map { .text($0.serialNumber) } ?? .null,
                    draft.template.map(SQLValue.text) ?? .null, .text(draft.actor),
                    .text(String(decoding: JSONValue.object(draft.payload).serialized(sortedKeys: true), as: UTF8.self)),
                ]
            }
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            let insert = """
                INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload) VALUES \(SQL.list("(?, ?, ?, ?, ?, ?, ?)", count: batch.count))
                """
            switch transaction.engine {
            case .postgres:
                let rows = try await transaction.query(SQL(
                    unsafeText: "WITH inserted AS (\(insert) RETURNING id, type, template), \(Self.deliveriesOfInserted)",
                    parameters: parameters + [.integer(now), .integer(now), .text(Self.webhookChannel)]))
                if try rows[0].int("queued") > 0 { transaction.afterCommit(webhooksQueued) }
            case .sqlite:
                let inserted = try await transaction.query(SQL(unsafeText: "\(insert) RETURNING id", parameters: parameters))
                try await queueDeliveries(events: try inserted.map { try $0.int64("id") }, at: now, in: transaction)
            }
            for key in batch.flatMap(Self.rollups(of:)) { counts[key, default: 0] += 1 }
        }
        // The counters in one statement, whatever the number of events.
        return counts
    }

    /// Appends an event about the pass `key`, its template read from the pass's row by the same
    /// statement (nothing is appended when the pass is gone), and adds it to the pass's counters and
    /// queues its webhook deliveries: on PostgreSQL in the same statement (a register is a handful of
    /// round trips, and counting must not add one), on SQLite (in process, no round trip) in
    /// statements of their own.
    func appendPassEvent(
        _ type: WalletEventType, _ key: PassKey, actor: String, payload: JSONObject, at now: Int64, in transaction: Transaction
    ) async throws {
        let metrics = countsAnalytics ? Self.passRollups(of: type, payload) : []
        let payloadText = String(decoding: JSONValue.object(payload).serialized(sortedKeys: true), as: UTF8.self)
        if transaction.engine == .postgres {
            // `passRollups` names each metric once; the text for its count is built once per process.
            let rows = try await transaction.query(SQL(unsafeText: Self.passEventWithCounters(metrics.count), parameters: [
                .text(key.passTypeIdentifier), .text(key.serialNumber)] + metrics.map { SQLValue.text($0.name) } + [
                .integer(Int64(Self.day(now))), .integer(Int64.random(in: 0..<Int64(Self.analyticsShards))),
                .integer(now), .text(type.rawValue), .text(actor), .text(payloadText),
                .integer(now), .integer(now), .text(Self.webhookChannel),
            ]))
            if try rows[0].int("queued") > 0 { transaction.afterCommit(webhooksQueued) }
        } else {
            let inserted = try await transaction.query(SQL(
                """
                INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
                SELECT ?, ?, pass_type_identifier, serial_number, template, ?, ? FROM passes
                WHERE pass_type_identifier = ? AND serial_number = ?
                RETURNING id
                """,
                .integer(now), .text(type.rawValue), .text(actor), .text(payloadText),
                .text(key.passTypeIdentifier), .text(key.serialNumber)))
            try await addPassRollups(metrics, for: key, at: now, in: transaction)
            try await queueDeliveries(events: try inserted.map { try $0.int64("id") }, at: now, in: transaction)
        }
    }

    /// The end of a PostgreSQL statement whose events are inserted by a query named `inserted`.
    private static let deliveriesOfInserted = postgresDeliveries(of: "inserted")

    /// The PostgreSQL statement appending a pass's event, adding one to each of `metrics` of its
    /// counters (`metrics` names in `VALUES`; none, no counter) and queuing its deliveries: the
    /// pass's row read once, for all three.
    private static func passEventWithCounters(_ metrics: Int) -> String {
        metrics < passEventStatements.count ? passEventStatements[metrics] : passEventStatement(metrics)
    }

    private static let passEventStatements = (0..<4).map(passEventStatement)

    private static func passEventStatement(_ metrics: Int) -> String {
        let counted = metrics == 0 ? "SELECT CAST(NULL AS TEXT) WHERE FALSE" : "VALUES \(SQL.list("(CAST(? AS TEXT))", count: metrics))"
        return """
            WITH pass AS (
                SELECT pass_type_identifier, serial_number, template, template_version FROM passes
                WHERE pass_type_identifier = ? AND serial_number = ?),
            counted (metric) AS (\(counted)),
            counters AS (
                INSERT INTO analytics_rollups (day, template, version, metric, shard, count)
                SELECT CAST(? AS INTEGER), pass.template, pass.template_version, counted.metric, CAST(? AS INTEGER), 1 FROM pass, counted
                ON CONFLICT (day, template, version, metric, shard) DO UPDATE SET count = analytics_rollups.count + excluded.count),
            inserted AS (
                INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
                SELECT CAST(? AS BIGINT), ?, pass_type_identifier, serial_number, template, ?, ? FROM pass
                RETURNING id, type, template),
            \(deliveriesOfInserted)
            """
    }

    /// The most devices a registration event counts (its `devices`; this many means this many or more).
    /// A pass is on a few devices; without a bound, every registration of a pass someone registered
    /// thousands of devices for would walk all of them inside its transaction (found by `http.sh`,
    /// whose register adds each device to one pass: BENCHMARKS.md). Whether it is the first device
    /// (`devices` 1: installed) or none is left (0) stays exact.
    static let countedDevices = 100

    /// How many devices are registered for `key`, up to ``countedDevices``, in the caller's transaction.
    static func deviceCount(_ key: PassKey, in transaction: Transaction) async throws -> Int {
        try await transaction.query(SQL(
            """
            SELECT COUNT(*) AS count FROM (
                SELECT 1 FROM registrations WHERE pass_type_identifier = ? AND serial_number = ? LIMIT ?
            ) AS counted
            """,
            .text(key.passTypeIdentifier), .text(key.serialNumber), .integer(Int64(countedDevices))))[0].int("count")
    }

    /// Appends events in a transaction of their own (a change whose own write is not the store's).
    public func appendEvents(_ drafts: [WalletEventDraft]) async throws {
        guard !drafts.isEmpty else { return }
        let now = clock.nowMilliseconds()
        try await storing("append \(drafts.count) events") {
            try await database.transaction { transaction in try await self.appendEvents(drafts, at: now, in: transaction) }
        }
    }

    /// Up to `limit` events after `cursor` in commit order, of `types` (all when `nil`) and of
    /// `template` (any when `nil`). Each page is an index seek from the cursor, however long the log.
    public func events(after cursor: EventCursor, types: Set<WalletEventType>? = nil, template: String? = nil, limit: Int = 100) async throws -> [WalletEvent] {
        // One past the page size is allowed: readers ask for one more to learn whether there is more.
        let limit = min(max(limit, 1), Self.maximumEventPage + 1)
        let engine = database.engine
        return try await storing("read the event log") {
            try await database.query(Self.eventPageQuery(engine: engine, after: cursor, types: types, template: template, limit: limit))
                .map { try WalletEvent(row: $0, engine: engine) }
        }
    }

    /// The statement behind ``events(after:types:template:limit:)``, on its own so tests can ask each
    /// engine for its plan.
    static func eventPageQuery(engine: DatabaseEngine, after cursor: EventCursor, types: Set<WalletEventType>?, template: String?, limit: Int) -> SQL {
        var conditions: [String] = []
        var parameters: [SQLValue] = []
        switch engine {
        case .sqlite:
            conditions.append("id > ?")
            parameters.append(.integer(cursor.id))
        case .postgres:
            // Only transactions older than every one still running: none of those can commit later.
            conditions.append("(tx, id) > (CAST(CAST(? AS TEXT) AS xid8), ?) AND tx < pg_snapshot_xmin(pg_current_snapshot())")
            parameters += [.integer(cursor.transaction), .integer(cursor.id)]
        }
        if let types, !types.isEmpty {
            let sorted = types.map(\.rawValue).sorted()
            conditions.append("type IN (\(SQL.placeholders(sorted.count)))")
            parameters += sorted.map(SQLValue.text)
        }
        if let template {
            conditions.append("template = ?")
            parameters.append(.text(template))
        }
        parameters.append(.integer(Int64(limit)))
        let columns = "id, occurred_at, type, pass_type_identifier, serial_number, template, actor, payload"
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        switch engine {
        case .sqlite:
            return SQL(unsafeText: "SELECT \(columns) FROM events WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?", parameters: parameters)
        case .postgres:
            // `events.tx`, not the output column of the same name: ordering by the column is what walks the index.
            return SQL(unsafeText: """
                SELECT \(columns), CAST(CAST(tx AS TEXT) AS BIGINT) AS tx FROM events
                WHERE \(conditions.joined(separator: " AND ")) ORDER BY events.tx, events.id LIMIT ?
                """, parameters: parameters)
        }
    }

    /// The pass's newest `limit` events, oldest first (an export of what is stored about it); a seek on
    /// `events_pass`.
    public func events(for key: PassKey, limit: Int = maximumEventPage) async throws -> [WalletEvent] {
        let engine = database.engine
        let tx = engine == .postgres ? ", CAST(CAST(tx AS TEXT) AS BIGINT) AS tx" : ""
        return try await storing("read the events of the pass \(key)") {
            // Only the fixed column fragment is concatenated; every value is a parameter.
            try await database.query(SQL(unsafeText: """
                SELECT id, occurred_at, type, pass_type_identifier, serial_number, template, actor, payload\(tx) FROM events
                WHERE pass_type_identifier = ? AND serial_number = ? ORDER BY id DESC LIMIT ?
                """, parameters: [.text(key.passTypeIdentifier), .text(key.serialNumber), .integer(Int64(limit))]))
                .map { try WalletEvent(row: $0, engine: engine) }.reversed()
        }
    }

    /// Deletes up to `limit` events that occurred before `cutoff`, oldest first; returns how many.
    /// Small batches, so pruning never holds the writer for long.
    public func pruneEvents(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        try await storing("prune the event log") {
            try await database.execute(SQL(
                "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE occurred_at < ? ORDER BY occurred_at LIMIT ?)",
                .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }
}
