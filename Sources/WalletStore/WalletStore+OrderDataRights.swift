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

    /// The order's events, oldest first, up to the newest `limit`. An order's event names it in its
    /// payload (the log's pass columns stay empty), so they are found among the order events of its
    /// template (`events_template`), narrowed by the identifier's text and then compared exactly.
    public func events(for key: OrderKey, template: String, limit: Int = maximumEventPage) async throws -> [WalletEvent] {
        let engine = database.engine
        let tx = engine == .postgres ? ", CAST(CAST(tx AS TEXT) AS BIGINT) AS tx" : ""
        let contains = engine == .postgres ? "strpos" : "instr"
        return try await storing("read the events of the order \(key)") {
            // Only fixed fragments are concatenated; every value is a parameter.
            try await database.query(SQL(unsafeText: """
                SELECT id, occurred_at, type, pass_type_identifier, serial_number, template, actor, payload\(tx) FROM events
                WHERE template = ? AND type LIKE 'order.%' AND \(contains)(payload, ?) > 0 ORDER BY id DESC
                """, parameters: [.text(template), .text(key.orderIdentifier)]))
                .map { try WalletEvent(row: $0, engine: engine) }
                .filter { $0.payload["orderIdentifier"] == .string(key.orderIdentifier) && $0.payload["orderTypeIdentifier"] == .string(key.orderTypeIdentifier) }
                .prefix(limit).reversed()
        }
    }
}
