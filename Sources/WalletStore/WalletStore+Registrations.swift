import PassModel
import Storage

extension WalletStore {
    /// Registers a device for a pass's updates (web service endpoint 1).
    ///
    /// The device row is upserted and its push token replaced even when the registration exists
    /// (Apple: a device may re-register with a new token, so update it on the 200 path too); pending
    /// pushes switch to the new token. Throws ``WalletStoreError/passNotFound(_:)`` for an unknown pass.
    public func register(deviceLibraryIdentifier: String, pushToken: String, pass key: PassKey) async throws -> RegistrationResult {
        let now = clock.nowMilliseconds()
        return try await storing("register a device for the pass \(key)") {
            if database.engine == .postgres {
                return try await registerInOneStatement(deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken, pass: key, at: now)
            }
            return try await database.transaction { transaction in
                try await Self.upsertDevice(deviceLibraryIdentifier, pushToken: pushToken, at: now, in: transaction)
                // The pass's foreign key answers whether it exists, without a statement of its own.
                let inserted: Int
                do {
                    inserted = try await transaction.execute(SQL(
                        """
                        INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
                        VALUES (?, ?, ?, ?)
                        ON CONFLICT (device_library_identifier, pass_type_identifier, serial_number) DO NOTHING
                        """,
                        .text(deviceLibraryIdentifier), .text(key.passTypeIdentifier), .text(key.serialNumber), .integer(now)
                    ))
                } catch let error as StorageError where error.isForeignKeyViolation {
                    throw WalletStoreError.passNotFound(key)
                }
                try await Self.moveQueuedPushes(deviceLibraryIdentifier, to: pushToken, in: transaction)
                if inserted == 1 {
                    // The count, never the device's identifier or token: the payload carries no device data.
                    let devices = try await Self.deviceCount(key, in: transaction)
                    try await self.appendPassEvent(.passInstalled, key, actor: "device", payload: ["devices": .number(Double(devices))], at: now, in: transaction)
                }
                return inserted == 1 ? .created : .alreadyRegistered
            }
        }
    }

    /// Removes a device's registration for a pass (web service endpoint 4); returns whether one
    /// existed. A device left without registrations is deleted, and its pending push for the pass
    /// type is dropped when it has no other pass of that type.
    @discardableResult
    public func unregister(deviceLibraryIdentifier: String, pass key: PassKey) async throws -> Bool {
        let now = clock.nowMilliseconds()
        return try await storing("unregister a device from the pass \(key)") {
            try await database.transaction { transaction in
                let removed = try await transaction.execute(SQL(
                    "DELETE FROM registrations WHERE device_library_identifier = ? AND pass_type_identifier = ? AND serial_number = ?",
                    .text(deviceLibraryIdentifier), .text(key.passTypeIdentifier), .text(key.serialNumber)
                ))
                guard removed > 0 else { return false }
                try await Self.removeOrphans(deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: key.passTypeIdentifier, in: transaction)
                let devices = try await Self.deviceCount(key, in: transaction)
                try await self.appendPassEvent(.passRemoved, key, actor: "device", payload: [
                    "devices": .number(Double(devices)), "allDevicesRemoved": .bool(devices == 0),
                ], at: now, in: transaction)
                return true
            }
        }
    }

    /// The device's passes of one type changed after `updatedSince` (web service endpoint 2), or
    /// `nil` when none did (HTTP 204). With no tag, every registered pass of the type is returned.
    ///
    /// The comparison is strict and `lastUpdated` is the largest returned tag, so asking again with
    /// it returns `nil` until one of the passes changes again.
    public func serialNumbers(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) async throws -> UpdatedSerials? {
        try await storing("list the updated serial numbers of \(passTypeIdentifier)") {
            let rows = try await database.query(Self.updatedSerialsQuery(
                deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier, updatedSince: updatedSince
            ))
            guard !rows.isEmpty else { return nil }
            return UpdatedSerials(
                serialNumbers: try rows.map { try $0.string("serial_number") },
                lastUpdated: try rows.map { try $0.int64("update_tag") }.max()!
            )
        }
    }

    /// The statement behind ``serialNumbers(deviceLibraryIdentifier:passTypeIdentifier:updatedSince:)``,
    /// on its own so that tests can ask each engine for its plan.
    ///
    /// Every device asks this after every push, so it must cost the device's few registrations, not
    /// the type's passes: it walks the registrations primary key (device, type, serial) and looks each
    /// pass up by its own. Hence the order is by `registrations.serial_number`, which that walk yields
    /// as is; ordered by `passes.serial_number` (the same value, but SQLite does not know) SQLite's
    /// planner preferred to scan every pass of the type in key order to skip a sort (issue #14).
    static func updatedSerialsQuery(deviceLibraryIdentifier: String, passTypeIdentifier: String, updatedSince: Int64?) -> SQL {
        SQL(
            """
            SELECT registrations.serial_number, passes.update_tag
            FROM registrations
            JOIN passes ON passes.pass_type_identifier = registrations.pass_type_identifier
                       AND passes.serial_number = registrations.serial_number
            WHERE registrations.device_library_identifier = ? AND registrations.pass_type_identifier = ?
              AND passes.update_tag > ?
            ORDER BY registrations.serial_number
            """,
            .text(deviceLibraryIdentifier), .text(passTypeIdentifier), .integer(updatedSince ?? 0)
        )
    }

    /// How many devices are registered for the pass.
    public func registrationCount(for key: PassKey) async throws -> Int {
        try await storing("count the registrations of the pass \(key)") {
            try await database.query(SQL(
                "SELECT COUNT(*) AS count FROM registrations WHERE pass_type_identifier = ? AND serial_number = ?",
                .text(key.passTypeIdentifier), .text(key.serialNumber)
            ))[0].int("count")
        }
    }

    /// The devices registered for the pass with their current push tokens, their last APNs answer
    /// and whether a push for the pass's type waits for them, oldest registration first.
    ///
    /// The queued flag is a probe of the outbox's unique (device, pass type) index per device.
    public func registeredDevices(for key: PassKey) async throws -> [RegisteredDevice] {
        try await storing("list the devices registered for the pass \(key)") {
            try await database.query(SQL(
                """
                SELECT devices.device_library_identifier, devices.push_token, registrations.created_at,
                       devices.last_push_at, devices.last_push_status, devices.last_push_reason,
                       CASE WHEN EXISTS (
                           SELECT 1 FROM push_outbox
                           WHERE push_outbox.device_library_identifier = registrations.device_library_identifier
                             AND push_outbox.pass_type_identifier = registrations.pass_type_identifier
                       ) THEN 1 ELSE 0 END AS push_queued
                FROM registrations JOIN devices ON devices.device_library_identifier = registrations.device_library_identifier
                WHERE registrations.pass_type_identifier = ? AND registrations.serial_number = ?
                ORDER BY registrations.created_at, devices.device_library_identifier
                """,
                .text(key.passTypeIdentifier), .text(key.serialNumber)
            )).map { row in
                RegisteredDevice(
                    deviceLibraryIdentifier: try row.string("device_library_identifier"),
                    pushToken: try row.string("push_token"),
                    registeredAt: Milliseconds.date(try row.int64("created_at")),
                    lastPushAt: try row.optionalInt64("last_push_at").map(Milliseconds.date),
                    lastPushStatus: try row.optionalInt64("last_push_status").map { Int($0) },
                    lastPushReason: try row.optionalString("last_push_reason"),
                    pushQueued: try row.int("push_queued") != 0
                )
            }
        }
    }

    /// Stores a device with its current push token (Apple: a device may register again with a new
    /// token, so it is replaced on every registration, new or not).
    static func upsertDevice(_ device: String, pushToken: String, at now: Int64, in transaction: Transaction) async throws {
        try await transaction.execute(SQL(
            """
            INSERT INTO devices (device_library_identifier, push_token, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (device_library_identifier) DO UPDATE SET push_token = excluded.push_token, updated_at = excluded.updated_at
            """,
            .text(device), .text(pushToken), .integer(now)))
    }

    /// Points the device's waiting pushes at its new token.
    static func moveQueuedPushes(_ device: String, to pushToken: String, in transaction: Transaction) async throws {
        try await transaction.execute(SQL(
            "UPDATE push_outbox SET push_token = ? WHERE device_library_identifier = ? AND push_token <> ?",
            .text(pushToken), .text(device), .text(pushToken)))
    }

    /// After registrations of a device were removed: drops its pending push for the pass (or order)
    /// type when it has no pass or order of that type left, and the device itself when it has no
    /// registration left.
    static func removeOrphans(deviceLibraryIdentifier: String, passTypeIdentifier: String, in transaction: Transaction) async throws {
        try await transaction.execute(SQL(
            """
            DELETE FROM push_outbox WHERE device_library_identifier = ? AND pass_type_identifier = ?
              AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_identifier = ? AND pass_type_identifier = ?)
              AND NOT EXISTS (SELECT 1 FROM order_registrations WHERE device_library_identifier = ? AND order_type_identifier = ?)
            """,
            .text(deviceLibraryIdentifier), .text(passTypeIdentifier), .text(deviceLibraryIdentifier), .text(passTypeIdentifier),
            .text(deviceLibraryIdentifier), .text(passTypeIdentifier)
        ))
        try await transaction.execute(SQL(
            """
            DELETE FROM devices WHERE device_library_identifier = ?
              AND NOT EXISTS (SELECT 1 FROM registrations WHERE device_library_identifier = ?)
              AND NOT EXISTS (SELECT 1 FROM order_registrations WHERE device_library_identifier = ?)
            """,
            .text(deviceLibraryIdentifier), .text(deviceLibraryIdentifier), .text(deviceLibraryIdentifier)
        ))
    }
}
