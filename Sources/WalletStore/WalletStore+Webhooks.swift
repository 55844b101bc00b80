import Foundation
import PassModel
import Storage

/// Webhook endpoints and the delivery outbox. Deliveries are queued by the transaction that appends
/// their event (on PostgreSQL in the event's own statement, ``postgresDeliveries(of:)``; on SQLite
/// by ``queueDeliveries(events:at:in:)``), so a committed event always has its deliveries and a
/// rolled-back one never does, and are drained by the webhook worker of every instance.
extension WalletStore {
    /// The PostgreSQL channel a commit that queued deliveries notifies.
    static let webhookChannel = "passwright_webhooks"

    /// One pending delivery per matching enabled endpoint for each of `events` (just inserted), in
    /// event order; the worker is told after the commit. On SQLite, whose statements cost no round
    /// trip; PostgreSQL queues them in the statement that inserts the events (``postgresDeliveries(of:)``).
    func queueDeliveries(events: [Int64], at now: Int64, in transaction: Transaction) async throws {
        precondition(transaction.engine == .sqlite, "PostgreSQL queues deliveries in the events' statement")
        guard !events.isEmpty else { return }
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        let queued = try await transaction.execute(SQL(unsafeText: """
            INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
            SELECT webhook_endpoints.id, events.id, CAST(? AS BIGINT), CAST(? AS BIGINT)
            FROM events JOIN webhook_endpoints ON \(Self.endpointMatches("events", contains: "instr"))
            WHERE events.id IN (\(SQL.placeholders(events.count)))
            ORDER BY events.id, webhook_endpoints.id
            """, parameters: [.integer(now), .integer(now)] + events.map(SQLValue.integer)))
        if queued > 0 { transaction.afterCommit(webhooksQueued) }
    }

    /// On PostgreSQL, the end of a statement that inserts events in a `WITH` query named `source`
    /// (rows with `id`, `type` and `template`): a `deliveries` query queuing one delivery per
    /// matching enabled endpoint for each, in event order, and the closing `SELECT` of how many it
    /// queued (`queued`) with a notification to the workers when there are any (`notified`).
    /// Parameters: the time twice, then the channel. Queuing them in the events' own statement
    /// saves each write that appends events a round trip, with or without endpoints.
    static func postgresDeliveries(of source: String) -> String {
        """
        deliveries AS (
            INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
            SELECT webhook_endpoints.id, \(source).id, CAST(? AS BIGINT), CAST(? AS BIGINT)
            FROM \(source) JOIN webhook_endpoints ON \(endpointMatches(source, contains: "strpos"))
            ORDER BY \(source).id, webhook_endpoints.id
            RETURNING 1)
        SELECT (SELECT COUNT(*) FROM deliveries) AS queued, (SELECT pg_notify(?, '') FROM deliveries LIMIT 1) AS notified
        """
    }

    /// Whether an enabled endpoint wants the event in `events` (a table or query with `type` and
    /// `template`); `contains` is the engine's substring position function.
    private static func endpointMatches(_ events: String, contains: String) -> String {
        """
        webhook_endpoints.enabled
                AND (webhook_endpoints.event_types = '*' OR \(contains)(webhook_endpoints.event_types, ',' || \(events).type || ',') > 0)
                AND (webhook_endpoints.templates = '*' OR \(contains)(webhook_endpoints.templates, ',' || COALESCE(\(events).template, '') || ',') > 0)
        """
    }

    // MARK: Endpoints

    /// Runs `change` in a transaction and audits what it returns (nothing when `nil`: no such endpoint).
    private func auditedWebhookChange<Result: Sendable>(
        _ operation: String, _ action: String, endpoint id: String, changes: [String], by origin: WriteOrigin,
        _ change: @escaping @Sendable (Transaction, Int64) async throws -> Result?
    ) async throws -> Result? {
        let now = clock.nowMilliseconds()
        return try await storing(operation) {
            try await database.transaction { transaction in
                guard let result = try await change(transaction, now) else { return nil }
                try await self.appendAudit([AuditDraft(action: action, target: "webhook \(id)", changes: changes)], by: origin, at: now, in: transaction)
                return result
            }
        }
    }

    /// Stores a new endpoint (audited as `webhook.create`).
    public func createWebhookEndpoint(_ endpoint: NewWebhookEndpoint, origin: WriteOrigin) async throws -> WebhookEndpoint {
        let now = clock.nowMilliseconds()
        return try await storing("create a webhook endpoint") {
            try await database.transaction { transaction in
                let created = try await transaction.query(SQL(unsafeText: """
                    INSERT INTO webhook_endpoints (id, url, description, event_types, templates, secret, enabled, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, TRUE, ?, ?) RETURNING \(WebhookEndpoint.columns)
                    """, parameters: [
                        .text(endpoint.id), .text(endpoint.url), .text(endpoint.description),
                        .text(WebhookEndpoint.text(endpoint.eventTypes.map { $0.map(\.rawValue) })), .text(WebhookEndpoint.text(endpoint.templates.map(Array.init))),
                        .text(endpoint.sealedSecret), .integer(now), .integer(now),
                    ])).map(WebhookEndpoint.init(row:))[0]
                let audit = AuditDraft(action: "webhook.create", target: "webhook \(endpoint.id)", changes: ["url", "eventTypes", "templates"])
                try await self.appendAudit([audit], by: origin, at: now, in: transaction)
                return created
            }
        }
    }

    public func webhookEndpoints() async throws -> [WebhookEndpoint] {
        try await storing("list the webhook endpoints") {
            try await database.query(SQL(unsafeText: "SELECT \(WebhookEndpoint.columns) FROM webhook_endpoints ORDER BY created_at, id", parameters: []))
                .map(WebhookEndpoint.init(row:))
        }
    }

    public func webhookEndpoint(_ id: String) async throws -> WebhookEndpoint? {
        try await storing("read a webhook endpoint") {
            try await database.query(SQL(unsafeText: "SELECT \(WebhookEndpoint.columns) FROM webhook_endpoints WHERE id = ?", parameters: [.text(id)]))
                .map(WebhookEndpoint.init(row:)).first
        }
    }

    /// Changes what is given; `enabled: true` also clears the reason it was disabled for. `nil` when
    /// there is no such endpoint. Audited as `webhook.update` with the names of what was given.
    public func updateWebhookEndpoint(
        _ id: String, url: String? = nil, description: String? = nil, eventTypes: Set<WalletEventType>?? = nil,
        templates: Set<String>?? = nil, enabled: Bool? = nil, origin: WriteOrigin
    ) async throws -> WebhookEndpoint? {
        let given: [(String, Bool)] = [("url", url != nil), ("description", description != nil), ("eventTypes", eventTypes != nil), ("templates", templates != nil), ("enabled", enabled != nil)]
        var sets: [String] = ["updated_at = ?"]
        var parameters: [SQLValue] = [.integer(clock.nowMilliseconds())]
        if let url { sets.append("url = ?"); parameters.append(.text(url)) }
        if let description { sets.append("description = ?"); parameters.append(.text(description)) }
        if let eventTypes { sets.append("event_types = ?"); parameters.append(.text(WebhookEndpoint.text(eventTypes.map { $0.map(\.rawValue) }))) }
        if let templates { sets.append("templates = ?"); parameters.append(.text(WebhookEndpoint.text(templates.map(Array.init)))) }
        if let enabled {
            sets.append(enabled ? "enabled = TRUE, disabled_reason = NULL" : "enabled = FALSE, disabled_reason = ?")
            if !enabled { parameters.append(.text("disabled through the API")) }
        }
        parameters.append(.text(id))
        let statement = SQL(unsafeText: """
            UPDATE webhook_endpoints SET \(sets.joined(separator: ", ")) WHERE id = ? RETURNING \(WebhookEndpoint.columns)
            """, parameters: parameters)
        let updated = try await auditedWebhookChange("update a webhook endpoint", "webhook.update", endpoint: id, changes: given.filter(\.1).map(\.0), by: origin) { transaction, _ in
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            try await transaction.query(statement).map(WebhookEndpoint.init(row:)).first
        }
        if enabled == true, updated != nil { webhooksQueued() }
        return updated
    }

    /// Deletes the endpoint and its deliveries; whether it existed.
    public func deleteWebhookEndpoint(_ id: String, origin: WriteOrigin) async throws -> Bool {
        try await auditedWebhookChange("delete a webhook endpoint", "webhook.delete", endpoint: id, changes: [], by: origin) { transaction, _ in
            try await transaction.execute(SQL("DELETE FROM webhook_endpoints WHERE id = ?", .text(id))) > 0 ? true : nil
        } ?? false
    }

    /// Makes `sealed` the endpoint's secret; the old one keeps signing beside it until `previousUntil`.
    public func rotateWebhookSecret(_ id: String, sealed: String, previousUntil: Date, origin: WriteOrigin) async throws -> WebhookEndpoint? {
        try await auditedWebhookChange("rotate a webhook secret", "webhook.rotate-secret", endpoint: id, changes: ["secret"], by: origin) { transaction, now in
            try await transaction.query(SQL(unsafeText: """
                UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?, updated_at = ?
                WHERE id = ? RETURNING \(WebhookEndpoint.columns)
                """, parameters: [.integer(Milliseconds.of(previousUntil)), .text(sealed), .integer(now), .text(id)]))
                .map(WebhookEndpoint.init(row:)).first
        }
    }

    // MARK: Deliveries

    /// The endpoint's newest deliveries, newest first.
    public func webhookDeliveries(endpoint: String, limit: Int = 50) async throws -> [WebhookDelivery] {
        try await storing("list webhook deliveries") {
            try await database.query(SQL(
                """
                SELECT webhook_deliveries.id, endpoint_id, event_id, events.type, state, attempts, next_attempt_at, last_status, last_error,
                       last_latency_ms, response_excerpt, created_at, settled_at
                FROM webhook_deliveries JOIN events ON events.id = webhook_deliveries.event_id
                WHERE endpoint_id = ? ORDER BY webhook_deliveries.id DESC LIMIT ?
                """, .text(endpoint), .integer(Int64(min(max(limit, 1), 500))))).map(WebhookDelivery.init(row:))
        }
    }

    /// Queues the endpoint's events again: every event since `since` the endpoint subscribes to (or
    /// only `event`, by its id), as new pending deliveries after whatever is pending. Returns how many.
    /// Audited as `webhook.replay`.
    public func replayWebhookDeliveries(endpoint: String, since: Date? = nil, event: Int64? = nil, origin: WriteOrigin) async throws -> Int {
        let queued = try await auditedWebhookChange("replay webhook deliveries", "webhook.replay", endpoint: endpoint, changes: [], by: origin) { transaction, now in
                let contains = transaction.engine == .postgres ? "strpos" : "instr"
                let condition = event != nil ? "events.id = ?" : "events.occurred_at >= ?"
                let value = event.map(SQLValue.integer) ?? .integer(Milliseconds.of(since ?? .distantPast))
                let order = transaction.engine == .postgres ? "events.tx, events.id" : "events.id"
                // Only fixed fragments and placeholders are concatenated; every value is a parameter.
                return try await transaction.execute(SQL(unsafeText: """
                    INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
                    SELECT webhook_endpoints.id, events.id, CAST(? AS BIGINT), CAST(? AS BIGINT)
                    FROM events JOIN webhook_endpoints ON webhook_endpoints.id = ?
                        AND (webhook_endpoints.event_types = '*' OR \(contains)(webhook_endpoints.event_types, ',' || events.type || ',') > 0)
                        AND (webhook_endpoints.templates = '*' OR \(contains)(webhook_endpoints.templates, ',' || COALESCE(events.template, '') || ',') > 0)
                    WHERE \(condition)
                    ORDER BY \(order)
                    """, parameters: [.integer(now), .integer(now), .text(endpoint), value]))
        } ?? 0
        if queued > 0 { webhooksQueued() }
        return queued
    }

    /// Claims up to `limit` deliveries, at most one per endpoint: each enabled endpoint's oldest
    /// pending delivery, when it is due and nobody holds it (or its holder's lease lapsed), so an
    /// endpoint receives its events in order and one at a time. On PostgreSQL the rows are locked with
    /// `SKIP LOCKED`: instances claiming at once never share a delivery.
    public func claimWebhookDeliveries(instance: String, limit: Int, lease: Duration) async throws -> [WebhookJob] {
        let now = clock.nowMilliseconds()
        let until = now + Milliseconds.of(lease)
        let engine = database.engine
        return try await storing("claim webhook deliveries") {
            try await database.transaction { transaction in
                // The head of each enabled endpoint's queue: one index seek per endpoint. Read without a
                // lock, so the statement below checks again that each is still pending and unclaimed (on
                // PostgreSQL, after taking its row lock): another instance may have delivered it since.
                let heads = try await transaction.query(SQL(
                    """
                    SELECT (SELECT webhook_deliveries.id FROM webhook_deliveries
                            WHERE webhook_deliveries.endpoint_id = webhook_endpoints.id AND webhook_deliveries.state = 'pending'
                            ORDER BY webhook_deliveries.id LIMIT 1) AS head
                    FROM webhook_endpoints WHERE webhook_endpoints.enabled
                    """)).compactMap { try $0.optionalInt64("head") }
                guard !heads.isEmpty else { return [] }
                let lock = engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
                // Only fixed fragments and placeholders are concatenated; every value is a parameter.
                let due = try await transaction.query(SQL(unsafeText: """
                    SELECT id FROM webhook_deliveries
                    WHERE id IN (\(SQL.placeholders(heads.count))) AND state = 'pending'
                      AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                    ORDER BY next_attempt_at, id LIMIT ?\(lock)
                    """, parameters: heads.map(SQLValue.integer) + [.integer(now), .integer(now), .integer(Int64(limit))]))
                    .map { try $0.int64("id") }
                guard !due.isEmpty else { return [] }
                _ = try await transaction.execute(SQL(unsafeText: """
                    UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ? WHERE id IN (\(SQL.placeholders(due.count)))
                    """, parameters: [.text(instance), .integer(until)] + due.map(SQLValue.integer)))
                let eventColumns = "events.id, events.occurred_at, events.type, events.pass_type_identifier, events.serial_number, events.template, events.actor, events.payload"
                let tx = engine == .postgres ? ", CAST(CAST(events.tx AS TEXT) AS BIGINT) AS tx" : ""
                let rows = try await transaction.query(SQL(unsafeText: """
                    SELECT webhook_deliveries.id AS delivery_id, webhook_deliveries.attempts AS delivery_attempts, \(eventColumns)\(tx)
                    FROM webhook_deliveries JOIN events ON events.id = webhook_deliveries.event_id
                    WHERE webhook_deliveries.id IN (\(SQL.placeholders(due.count)))
                    """, parameters: due.map(SQLValue.integer)))
                let endpoints = try await transaction.query(SQL(unsafeText: """
                    SELECT \(WebhookEndpoint.columns.split(separator: ",").map { "webhook_endpoints." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")),
                           webhook_deliveries.id AS delivery_id
                    FROM webhook_deliveries JOIN webhook_endpoints ON webhook_endpoints.id = webhook_deliveries.endpoint_id
                    WHERE webhook_deliveries.id IN (\(SQL.placeholders(due.count)))
                    """, parameters: due.map(SQLValue.integer)))
                let endpointOf = try Dictionary(uniqueKeysWithValues: endpoints.map { (try $0.int64("delivery_id"), try WebhookEndpoint(row: $0)) })
                return try rows.compactMap { row -> WebhookJob? in
                    let id = try row.int64("delivery_id")
                    guard let endpoint = endpointOf[id] else { return nil }
                    return WebhookJob(deliveryID: id, endpoint: endpoint, event: try WalletEvent(row: row, engine: engine),
                                      attempts: try row.int("delivery_attempts"), claimedBy: instance)
                }.sorted { $0.deliveryID < $1.deliveryID }
            }
        }
    }

    /// Records how an attempt ended; `false` when the claim was lost meanwhile (the lease lapsed and
    /// another instance took the delivery). Giving up disables the endpoint in the same transaction.
    @discardableResult
    public func settleWebhookDelivery(_ job: WebhookJob, _ attempt: WebhookAttempt) async throws -> Bool {
        let now = clock.nowMilliseconds()
        let common: [SQLValue] = [
            attempt.status.map { .integer(Int64($0)) } ?? .null, attempt.error.map(SQLValue.text) ?? .null,
            .integer(Milliseconds.of(attempt.latency)), attempt.responseExcerpt.map(SQLValue.text) ?? .null,
        ]
        let key: [SQLValue] = [.integer(job.deliveryID), .text(job.claimedBy)]
        return try await storing("record a webhook delivery") {
            try await database.transaction { transaction in
                let fields = "attempts = attempts + 1, last_status = ?, last_error = ?, last_latency_ms = ?, response_excerpt = ?, claimed_by = NULL, claimed_until = NULL"
                let changed: Int
                switch attempt.result {
                case .delivered:
                    changed = try await transaction.execute(SQL(unsafeText: """
                        UPDATE webhook_deliveries SET state = 'delivered', settled_at = ?, \(fields) WHERE id = ? AND claimed_by = ?
                        """, parameters: [.integer(now)] + common + key))
                case .retry(let delay):
                    changed = try await transaction.execute(SQL(unsafeText: """
                        UPDATE webhook_deliveries SET next_attempt_at = ?, \(fields) WHERE id = ? AND claimed_by = ?
                        """, parameters: [.integer(now + Milliseconds.of(delay))] + common + key))
                case .giveUp(let reason):
                    changed = try await transaction.execute(SQL(unsafeText: """
                        UPDATE webhook_deliveries SET state = 'failed', settled_at = ?, \(fields) WHERE id = ? AND claimed_by = ?
                        """, parameters: [.integer(now)] + common + key))
                    if changed > 0 {
                        try await transaction.execute(SQL(
                            "UPDATE webhook_endpoints SET enabled = FALSE, disabled_reason = ?, updated_at = ? WHERE id = ?",
                            .text(reason), .integer(now), .text(job.endpoint.id)))
                    }
                }
                return changed > 0
            }
        }
    }

    /// When the earliest pending delivery of an enabled endpoint becomes claimable, or `nil` when
    /// none waits: how long an idle worker may sleep.
    public func nextWebhookDue() async throws -> Date? {
        try await storing("read when the next webhook delivery is due") {
            try await database.query(SQL(
                """
                SELECT MIN(CASE WHEN claimed_until IS NOT NULL AND claimed_until > next_attempt_at THEN claimed_until ELSE next_attempt_at END) AS due
                FROM webhook_deliveries JOIN webhook_endpoints ON webhook_endpoints.id = webhook_deliveries.endpoint_id
                WHERE webhook_deliveries.state = 'pending' AND webhook_endpoints.enabled
                """))[0].optionalInt64("due").map(Milliseconds.date)
        }
    }

    /// Calls `heard` whenever another instance's commit queued deliveries (PostgreSQL only).
    public func listenForQueuedWebhooks(_ heard: @escaping @Sendable () -> Void) async throws {
        try await storing("listen for queued webhook deliveries") {
            try await database.listen(on: Self.webhookChannel, notified: heard)
        }
    }
}
