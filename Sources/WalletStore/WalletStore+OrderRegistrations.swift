import Foundation
import PassModel
import Storage

/// The Orders web service's devices (Apple's "Register a device for update notifications" and its
/// siblings). A device is stored as `order:<deviceIdentifier>` in `devices`, so the push outbox, its
/// worker and APNs's answers treat it like any device while its token never replaces a pass's.
extension WalletStore {
    /// The `devices` key of an Orders web service device.
    static func orderDevice(_ deviceIdentifier: String) -> String { "order:" + deviceIdentifier }

    /// Registers a device for an order's updates; `.created` the first time. The push token is
    /// replaced on every call, and pending pushes switch to it. Throws
    /// ``WalletStoreError/orderNotFound(_:)`` for an unknown order.
    public func registerOrderDevice(_ deviceIdentifier: String, pushToken: String, order key: OrderKey) async throws -> RegistrationResult {
        let now = clock.nowMilliseconds()
        let device = Self.orderDevice(deviceIdentifier)
        return try await storing("register a device for the order \(key)") {
            try await database.transaction { transaction in
                try await Self.upsertDevice(device, pushToken: pushToken, at: now, in: transaction)
                let inserted: Int
                do {
                    inserted = try await transaction.execute(SQL(
                        """
                        INSERT INTO order_registrations (device_library_identifier, order_type_identifier, order_identifier, created_at)
                        VALUES (?, ?, ?, ?)
                        ON CONFLICT (device_library_identifier, order_type_identifier, order_identifier) DO NOTHING
                        """,
                        .text(device), .text(key.orderTypeIdentifier), .text(key.orderIdentifier), .integer(now)))
                } catch let error as StorageError where error.isForeignKeyViolation {
                    throw WalletStoreError.orderNotFound(key)
                }
                try await Self.moveQueuedPushes(device, to: pushToken, in: transaction)
                if inserted == 1 {
                    let template = try await transaction.query(SQL(
                        "SELECT template FROM orders WHERE order_type_identifier = ? AND order_identifier = ?",
                        .text(key.orderTypeIdentifier), .text(key.orderIdentifier)))[0].string("template")
                    let devices = try await Self.orderDeviceCount(key, in: transaction)
                    try await self.appendEvents([Self.orderEvent(
                        .orderInstalled, key, template: template, actor: "device", payload: ["devices": .number(Double(devices))])], at: now, in: transaction)
                }
                return inserted == 1 ? .created : .alreadyRegistered
            }
        }
    }

    /// Removes a device's registration for an order; whether one existed. A device left with no
    /// registration goes, with its pending push for the order type when it has no order of it left.
    @discardableResult
    public func unregisterOrderDevice(_ deviceIdentifier: String, order key: OrderKey) async throws -> Bool {
        let now = clock.nowMilliseconds()
        let device = Self.orderDevice(deviceIdentifier)
        return try await storing("unregister a device from the order \(key)") {
            try await database.transaction { transaction in
                let removed = try await transaction.execute(SQL(
                    "DELETE FROM order_registrations WHERE device_library_identifier = ? AND order_type_identifier = ? AND order_identifier = ?",
                    .text(device), .text(key.orderTypeIdentifier), .text(key.orderIdentifier)))
                guard removed > 0 else { return false }
                try await Self.removeOrphans(deviceLibraryIdentifier: device, passTypeIdentifier: key.orderTypeIdentifier, in: transaction)
                let template = try await transaction.query(SQL(
                    "SELECT template FROM orders WHERE order_type_identifier = ? AND order_identifier = ?",
                    .text(key.orderTypeIdentifier), .text(key.orderIdentifier))).first
                let devices = try await Self.orderDeviceCount(key, in: transaction)
                try await self.appendEvents([Self.orderEvent(
                    .orderRemoved, key, template: try template?.string("template") ?? "", actor: "device",
                    payload: ["devices": .number(Double(devices)), "allDevicesRemoved": .bool(devices == 0)])], at: now, in: transaction)
                return true
            }
        }
    }

    /// The device's orders of one type changed after the tag `since` (all of them without one), and
    /// the largest tag among them; `nil` when none did (HTTP 204).
    public func orderIdentifiers(deviceIdentifier: String, orderTypeIdentifier: String, modifiedSince since: Int64?) async throws -> (identifiers: [String], lastModified: Int64)? {
        try await storing("list the updated orders of \(orderTypeIdentifier)") {
            let rows = try await database.query(SQL(
                """
                SELECT order_registrations.order_identifier, orders.update_tag
                FROM order_registrations
                JOIN orders ON orders.order_type_identifier = order_registrations.order_type_identifier
                           AND orders.order_identifier = order_registrations.order_identifier
                WHERE order_registrations.device_library_identifier = ? AND order_registrations.order_type_identifier = ?
                  AND orders.update_tag > ?
                ORDER BY order_registrations.order_identifier
                """,
                .text(Self.orderDevice(deviceIdentifier)), .text(orderTypeIdentifier), .integer(since ?? 0)))
            guard !rows.isEmpty else { return nil }
            return (try rows.map { try $0.string("order_identifier") }, try rows.map { try $0.int64("update_tag") }.max()!)
        }
    }

    /// How many devices are registered for the order.
    public func orderRegistrationCount(for key: OrderKey) async throws -> Int {
        try await storing("count the registrations of the order \(key)") {
            try await database.query(SQL(
                "SELECT COUNT(*) AS count FROM order_registrations WHERE order_type_identifier = ? AND order_identifier = ?",
                .text(key.orderTypeIdentifier), .text(key.orderIdentifier)))[0].int("count")
        }
    }

    /// How many devices are registered for the order, up to ``countedDevices``, for its registration
    /// events (the bound's reason is the passes').
    static func orderDeviceCount(_ key: OrderKey, in transaction: Transaction) async throws -> Int {
        try await transaction.query(SQL(
            """
            SELECT COUNT(*) AS count FROM (
                SELECT 1 FROM order_registrations WHERE order_type_identifier = ? AND order_identifier = ? LIMIT ?
            ) AS counted
            """,
            .text(key.orderTypeIdentifier), .text(key.orderIdentifier), .integer(Int64(countedDevices))))[0].int("count")
    }
}
