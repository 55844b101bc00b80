import Foundation
import PassModel
import Storage

/// Erasure of a holder's data (GDPR Art. 17): the write itself blanks the pass's record and voids it
/// through ``writePasses(_:)`` (so the devices are pushed and fetch the voided pass); in the same
/// transaction ``eraseTraces(of:at:in:)`` removes what else held the holder's data, and the pass is
/// marked erased. Its registrations go after a grace period, once Wallet had the time to fetch it.
extension WalletStore {
    /// How long an erased pass's devices stay registered, so each can fetch the voided pass.
    public static let erasureGrace: Duration = .seconds(30 * 86_400)

    /// Removes, in the erasing write's transaction, everything besides the pass's row that can hold
    /// the holder's data: its history, its held change, the lines of bulk uploads that issued it and
    /// the device logs that name it; and marks it erased (once).
    static func eraseTraces(of key: PassKey, at now: Int64, in transaction: Transaction) async throws {
        let type = SQLValue.text(key.passTypeIdentifier), serial = SQLValue.text(key.serialNumber)
        _ = try await transaction.execute(SQL("DELETE FROM pass_updates WHERE pass_type_identifier = ? AND serial_number = ?", type, serial))
        _ = try await transaction.execute(SQL("DELETE FROM held_changes WHERE pass_type_identifier = ? AND serial_number = ?", type, serial))
        _ = try await transaction.execute(SQL(
            """
            UPDATE bulk_job_records SET record = NULL WHERE serial_number = ? AND record IS NOT NULL
              AND job_id IN (SELECT bulk_jobs.id FROM bulk_jobs JOIN passes ON passes.template = bulk_jobs.template
                             WHERE passes.pass_type_identifier = ? AND passes.serial_number = ?)
            """, serial, type, serial))
        try await deleteDeviceLogs(naming: key.serialNumber, in: transaction)
        _ = try await transaction.execute(SQL(
            "INSERT INTO erased_passes (pass_type_identifier, serial_number, erased_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            type, serial, .integer(now)))
    }

    /// Deletes the device logs whose line names `identifier` (Wallet's log lines name the pass or
    /// order that failed; ``DeviceLogMention``), in an erasure's transaction. The engine finds the lines
    /// that contain it anywhere; of those, only the ones that name it go.
    static func deleteDeviceLogs(naming identifier: String, in transaction: Transaction) async throws {
        let contains = transaction.engine == .postgres ? "strpos" : "instr"
        // Only the fixed function name is concatenated; the value is a parameter.
        let candidates = try await transaction.query(SQL(
            unsafeText: "SELECT id, message FROM device_logs WHERE \(contains)(message, ?) > 0", parameters: [.text(identifier)]))
        let naming = try candidates.filter { DeviceLogMention.names(identifier, in: try $0.string("message")) }.map { SQLValue.integer(try $0.int64("id")) }
        for batch in naming.batches(of: Self.logBatchSize) {
            // Only placeholders are concatenated; every id is a parameter.
            _ = try await transaction.execute(SQL(
                unsafeText: "DELETE FROM device_logs WHERE id IN (\(SQL.placeholders(batch.count)))", parameters: Array(batch)))
        }
    }

    /// When the pass was erased, or `nil` when it was not.
    public func erasedAt(_ key: PassKey) async throws -> Date? {
        try await storing("read whether the pass \(key) was erased") {
            try await database.query(SQL(
                "SELECT erased_at FROM erased_passes WHERE pass_type_identifier = ? AND serial_number = ?",
                .text(key.passTypeIdentifier), .text(key.serialNumber))).first.map { Milliseconds.date(try $0.int64("erased_at")) }
        }
    }

    /// After an erasure on SQLite, moves the write-ahead log into the database file and empties it,
    /// so the log's copies of the pages as they were before hold the old values no longer. PostgreSQL
    /// keeps old row versions until `VACUUM`; only live rows reach a dump.
    public func flushErasedPages() async throws {
        try await storing("checkpoint the write-ahead log") { try await database.flushLog() }
    }

    /// Removes the registrations of passes erased before `cutoff` (their grace is over), up to
    /// `limit`; returns how many. The analytics count them as removed devices (and passes), in the
    /// same transaction.
    public func dropErasedRegistrations(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        let now = clock.nowMilliseconds()
        return try await storing("remove the registrations of erased passes") {
            try await database.transaction { transaction in
                let removed = try await transaction.query(SQL(
                    """
                    DELETE FROM registrations WHERE (pass_type_identifier, serial_number) IN (
                        SELECT registrations.pass_type_identifier, registrations.serial_number FROM registrations
                        JOIN erased_passes ON erased_passes.pass_type_identifier = registrations.pass_type_identifier
                                          AND erased_passes.serial_number = registrations.serial_number
                        WHERE erased_passes.erased_at < ? LIMIT ?)
                    RETURNING pass_type_identifier, serial_number
                    """, .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
                try await self.addRemovedRegistrationRollups(
                    try removed.map { PassKey(passTypeIdentifier: try $0.string("pass_type_identifier"), serialNumber: try $0.string("serial_number")) },
                    at: now, in: transaction)
                return removed.count
            }
        }
    }
}
