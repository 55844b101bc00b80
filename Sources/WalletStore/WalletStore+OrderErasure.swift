import Foundation
import PassModel
import Storage

/// What an order's erasure (GDPR Art. 17) needs besides its write, which goes through
/// ``writeOrder(_:)`` like any change: finding the orders that hold a customer's value, and removing
/// erased orders' registrations once Wallet had the passes' grace period to fetch the erased order.
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
}
