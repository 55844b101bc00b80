import Foundation
import PassModel
import Storage

/// What a customer's data rights over orders need besides the order's own row: finding the orders
/// that hold a customer's value, what an export (GDPR Art. 15 and 20) adds to each order (its devices
/// and events), and removing erased orders' registrations once Wallet had the passes' grace period
/// to fetch the erased order. The erasure itself (Art. 17) is a write through ``writeOrder(_:)``.
extension WalletStore {
    /// Orders not erased (of `template`, when given) whose stored `order.json` contains `text`, in
    /// key order after `after`, at most `limit`: the candidates an erasure by value then compares
    /// exactly. `text` is compared as stored, so give a value as JSON writes it inside a string.
    public func ordersContaining(_ text: String, template: String?, after: OrderKey?, limit: Int) async throws -> [StoredOrder] {
        let start = after ?? OrderKey(orderTypeIdentifier: "", orderIdentifier: "")
        return try await storing("find the orders holding a value") {
            let contains = database.engine == .postgres ? "strpos" : "instr"
            // Only fixed text is concatenated; every value is a parameter.
            return try await database.query(SQL(
                unsafeText: """
                SELECT \(StoredOrder.columns) FROM orders
                WHERE erased_at IS NULL AND \(contains)(document, ?) > 0 \(template == nil ? "" : "AND template = ?")
                  AND (order_type_identifier, order_identifier) > (?, ?)
                ORDER BY order_type_identifier, order_identifier
                LIMIT ?
                """,
                parameters: [.text(text)] + (template.map { [SQLValue.text($0)] } ?? [])
                    + [.text(start.orderTypeIdentifier), .text(start.orderIdentifier), .integer(Int64(limit))])).map(StoredOrder.init(row:))
        }
    }

    /// Removes up to `limit` registrations of orders erased before `cutoff`; returns how many.
    public func dropErasedOrderRegistrations(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        try await storing("remove the registrations of erased orders") {
            try await database.execute(SQL(
                """
                DELETE FROM order_registrations WHERE (device_library_identifier, order_type_identifier, order_identifier) IN (
                    SELECT order_registrations.device_library_identifier, order_registrations.order_type_identifier, order_registrations.order_identifier
                    FROM order_registrations
                    JOIN orders ON orders.order_type_identifier = order_registrations.order_type_identifier
                               AND orders.order_identifier = order_registrations.order_identifier
                    WHERE orders.erased_at < ? LIMIT ?)
                """, .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }

    /// The devices registered for the order (Wallet's `deviceIdentifier`s), oldest first.
    public func orderDevices(for key: OrderKey) async throws -> [(deviceIdentifier: String, registeredAt: Date)] {
        try await storing("read the devices of the order \(key)") {
            try await database.query(SQL(
                """
                SELECT device_library_identifier, created_at FROM order_registrations
                WHERE order_type_identifier = ? AND order_identifier = ? ORDER BY created_at, device_library_identifier
                """, .text(key.orderTypeIdentifier), .text(key.orderIdentifier))).map {
                (deviceIdentifier: String(try $0.string("device_library_identifier").dropFirst(Self.orderDevice("").count)),
                 registeredAt: Milliseconds.date(try $0.int64("created_at")))
            }
        }
    }

    /// The order's events, oldest first, up to the newest `limit`: an order event names its order in
    /// its payload (the log's pass columns stay empty), which `events_order_document` indexes.
    public func events(for key: OrderKey, limit: Int = maximumEventPage) async throws -> [WalletEvent] {
        let engine = database.engine
        return try await storing("read the events of the order \(key)") {
            try await database.query(Self.orderEventsQuery(key, engine: engine, limit: limit))
                .map { try WalletEvent(row: $0, engine: engine) }.reversed()
        }
    }

    /// The statement behind ``events(for:limit:)``, on its own so that tests can ask each engine for
    /// its plan. Its member expressions are the index's, written the same way, so the planner matches them.
    static func orderEventsQuery(_ key: OrderKey, engine: DatabaseEngine, limit: Int) -> SQL {
        let (type, identifier, tx) = engine == .postgres
            ? ("CAST(payload AS jsonb) ->> 'orderTypeIdentifier'", "CAST(payload AS jsonb) ->> 'orderIdentifier'", ", CAST(CAST(tx AS TEXT) AS BIGINT) AS tx")
            : ("json_extract(payload, '$.orderTypeIdentifier')", "json_extract(payload, '$.orderIdentifier')", "")
        // Only fixed fragments are concatenated; every value is a parameter.
        return SQL(unsafeText: """
            SELECT id, occurred_at, type, pass_type_identifier, serial_number, template, actor, payload\(tx) FROM events
            WHERE type LIKE 'order.%' AND \(type) = ? AND \(identifier) = ? ORDER BY id DESC LIMIT ?
            """, parameters: [.text(key.orderTypeIdentifier), .text(key.orderIdentifier), .integer(Int64(limit))])
    }
}
