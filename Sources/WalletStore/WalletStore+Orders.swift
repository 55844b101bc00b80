import Foundation
import PassModel
import Storage

/// Orders: the one write path of the order aggregate. Every change is a compare-and-swap on the
/// order's update tag in one short transaction that also appends its event and audit row and
/// queues a push per registered device, so nothing of a change is acknowledged unless all of it is.
/// As a pass write does (``apply(_:in:)``), each appends its event and audit row before it draws the
/// tag, so the tags' lock covers only what needs the tag, the counters and the pushes.
extension WalletStore {
    /// Stores a new order under a new tag and appends `order.created` and an `order.create` audit
    /// row. Throws ``WalletStoreError/orderExists(_:)`` when the key is taken.
    public func createOrder(
        _ key: OrderKey, template: String, templateVersion: Int64, document: String, authenticationToken: String, lastModified: Date, origin: WriteOrigin
    ) async throws -> StoredOrder {
        let now = clock.nowMilliseconds()
        let modified = Milliseconds.of(lastModified)
        return try await storing("create the order \(key)") {
            try await database.transaction { transaction in
                let counts = try await self.insertEvents(
                    [Self.orderEvent(.orderCreated, key, template: template, actor: origin.actor, payload: [:])], at: now, in: transaction)
                try await self.appendAudit([AuditDraft(action: "order.create", target: AuditDraft.order(key))], by: origin, at: now, in: transaction)
                let tag = try await Self.nextUpdateTag(transaction)
                do {
                    try await transaction.execute(SQL(
                        """
                        INSERT INTO orders (order_type_identifier, order_identifier, template, template_version, document, authentication_token, update_tag, created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                        .text(key.orderTypeIdentifier), .text(key.orderIdentifier), .text(template), .integer(templateVersion), .text(document),
                        .text(authenticationToken), .integer(tag), .integer(now), .integer(modified)))
                } catch let error as StorageError where error.isUniqueViolation {
                    throw WalletStoreError.orderExists(key)
                }
                try await self.addRollups(counts, at: now, in: transaction)
                return StoredOrder(
                    key: key, template: template, templateVersion: templateVersion, document: document, authenticationToken: authenticationToken, updateTag: tag,
                    createdAt: Milliseconds.date(now), lastModified: Milliseconds.date(modified))
            }
        }
    }

    /// Writes `change` if the order still has `change.expectedTag`: the new document under a new
    /// tag, `order.updated` with the changed keys, an `order.update` audit row and one push per
    /// registered device, in one transaction. Another writer's change in between answers
    /// ``OrderWrite/conflict(current:)`` and writes nothing; an erased order answers
    /// ``OrderWrite/erased(_:)``. A change that ``OrderChange/erases`` also marks the order erased
    /// and removes what else names it (``eraseTraces(of:in:)``), with `order.erased` and `order.erase` instead.
    public func writeOrder(_ change: OrderChange) async throws -> OrderWrite {
        let now = clock.nowMilliseconds()
        let result = try await storing("write the order \(change.key)") {
            try await database.transaction { transaction -> OrderWrite in
                let lock = transaction.engine == .postgres ? "FOR NO KEY UPDATE" : ""
                let type = SQLValue.text(change.key.orderTypeIdentifier), identifier = SQLValue.text(change.key.orderIdentifier)
                guard let current = try await transaction.query(SQL(
                    unsafeText: "SELECT \(StoredOrder.columns) FROM orders WHERE order_type_identifier = ? AND order_identifier = ? \(lock)",
                    parameters: [type, identifier]
                )).first.map(StoredOrder.init(row:)) else { return .notFound }
                if current.erasedAt != nil { return .erased(current) }
                guard current.updateTag == change.expectedTag else { return .conflict(current: current) }
                let counts = try await self.insertEvents([Self.orderEvent(
                    change.erases ? .orderErased : .orderUpdated, change.key, template: current.template, actor: change.origin.actor,
                    payload: ["changes": .array(change.changes.map(JSONValue.string))])], at: now, in: transaction)
                try await self.appendAudit(
                    [AuditDraft(action: change.erases ? "order.erase" : "order.update", target: AuditDraft.order(change.key), changes: change.changes)],
                    by: change.origin, at: now, in: transaction)
                let tag = try await Self.nextUpdateTag(transaction)
                let modified = Milliseconds.of(change.lastModified)
                let erasedAt: SQLValue = change.erases ? .integer(now) : .null
                try await transaction.execute(SQL(
                    "UPDATE orders SET document = ?, update_tag = ?, updated_at = ?, erased_at = ? WHERE order_type_identifier = ? AND order_identifier = ?",
                    .text(change.document), .integer(tag), .integer(modified), erasedAt, type, identifier))
                if change.erases { try await Self.eraseTraces(of: change.key, in: transaction) }
                try await self.addRollups(counts, at: now, in: transaction)
                let queued = try await Self.enqueuePushes(.order(change.key), now: now, in: transaction)
                return .written(StoredOrder(
                    key: change.key, template: current.template, templateVersion: current.templateVersion, document: change.document, authenticationToken: current.authenticationToken,
                    updateTag: tag, createdAt: current.createdAt, lastModified: Milliseconds.date(modified),
                    erasedAt: change.erases ? Milliseconds.date(now) : nil), pushesQueued: queued)
            }
        }
        if case .written(_, let queued) = result, queued > 0 { pushesQueued() }
        return result
    }

    /// Removes, in an erasure's transaction, what else names the order and may hold its customer:
    /// the device logs naming it (Wallet's log lines name what failed), as a pass's erasure removes
    /// those naming its serial, and the stored answers of `Idempotency-Key` requests naming it (an
    /// order's create or change answers with the whole order, kept 24 hours to replay): a retry of
    /// one after the erasure runs again, and a create then finds the order exists.
    private static func eraseTraces(of key: OrderKey, in transaction: Transaction) async throws {
        let postgres = transaction.engine == .postgres
        let identifier = SQLValue.text(key.orderIdentifier)
        try await deleteDeviceLogs(naming: key.orderIdentifier, in: transaction)
        // Only fixed fragments are concatenated; the value is a parameter.
        _ = try await transaction.execute(SQL(
            unsafeText: postgres
                ? "DELETE FROM idempotency_keys WHERE position(convert_to(?, 'UTF8') in body) > 0"
                : "DELETE FROM idempotency_keys WHERE instr(body, CAST(? AS BLOB)) > 0",
            parameters: [identifier]))
    }

    /// The order with `key`, or `nil`.
    public func order(_ key: OrderKey) async throws -> StoredOrder? {
        try await storing("read the order \(key)") {
            try await database.query(SQL(
                unsafeText: "SELECT \(StoredOrder.columns) FROM orders WHERE order_type_identifier = ? AND order_identifier = ?",
                parameters: [.text(key.orderTypeIdentifier), .text(key.orderIdentifier)]
            )).first.map(StoredOrder.init(row:))
        }
    }

    /// The most recently changed orders, newest first, optionally of one template.
    public func recentOrders(template: String? = nil, limit: Int = 100) async throws -> [StoredOrder] {
        try await storing("list the orders") {
            if let template {
                return try await database.query(SQL(
                    unsafeText: "SELECT \(StoredOrder.columns) FROM orders WHERE template = ? ORDER BY updated_at DESC LIMIT ?",
                    parameters: [.text(template), .integer(Int64(limit))])).map(StoredOrder.init(row:))
            }
            return try await database.query(SQL(
                unsafeText: "SELECT \(StoredOrder.columns) FROM orders ORDER BY updated_at DESC LIMIT ?",
                parameters: [.integer(Int64(limit))])).map(StoredOrder.init(row:))
        }
    }

    /// An order's event: its identifiers in the payload (the event log's pass columns stay empty).
    static func orderEvent(_ type: WalletEventType, _ key: OrderKey, template: String, actor: String, payload: JSONObject) -> WalletEventDraft {
        var payload = payload
        payload["orderTypeIdentifier"] = .string(key.orderTypeIdentifier)
        payload["orderIdentifier"] = .string(key.orderIdentifier)
        return WalletEventDraft(type: type, template: template, actor: actor, payload: payload)
    }
}
