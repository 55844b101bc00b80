import Foundation
import PassModel
import Storage

/// Retention by age of what the operator chose to keep for a while only: pass history, device logs,
/// and voided passes (erased when their time is up). Each call removes a small batch, oldest first,
/// so the retention job never holds the writer for long.
extension WalletStore {
    /// Deletes up to `limit` history rows written before `cutoff`; returns how many.
    public func pruneHistory(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        try await storing("prune pass history") {
            try await database.execute(SQL(
                "DELETE FROM pass_updates WHERE id IN (SELECT id FROM pass_updates WHERE changed_at < ? ORDER BY changed_at LIMIT ?)",
                .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }

    /// Deletes up to `limit` device log lines received before `cutoff`; returns how many.
    public func pruneDeviceLogs(before cutoff: Date, limit: Int = 1_000) async throws -> Int {
        try await storing("prune device logs") {
            try await database.execute(SQL(
                "DELETE FROM device_logs WHERE id IN (SELECT id FROM device_logs WHERE received_at < ? ORDER BY received_at LIMIT ?)",
                .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))))
        }
    }

    /// Up to `limit` passes not voided whose recorded `expirationDate` is at or before `now`, soonest
    /// first; a seek on `passes_expiring`.
    public func expiredPasses(at now: Date, limit: Int = 200) async throws -> [PassKey] {
        try await storing("find passes past their expiration date") {
            try await database.query(SQL(
                """
                SELECT pass_type_identifier, serial_number FROM passes
                WHERE NOT voided AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?
                """, .integer(Milliseconds.of(now)), .integer(Int64(limit))
            )).map { PassKey(passTypeIdentifier: try $0.string("pass_type_identifier"), serialNumber: try $0.string("serial_number")) }
        }
    }

    /// Up to `limit` voided passes, not erased yet, that last changed before `cutoff`, oldest first:
    /// by `voided_changed_at`, which is `NULL` for a pass not voided, so its index is never written
    /// when a roll-out moves such a pass.
    public func voidedPasses(before cutoff: Date, limit: Int = 200) async throws -> [PassKey] {
        try await storing("find voided passes past their retention") {
            try await database.query(SQL(
                """
                SELECT pass_type_identifier, serial_number FROM passes
                WHERE voided_changed_at IS NOT NULL AND voided_changed_at < ? AND NOT EXISTS (
                    SELECT 1 FROM erased_passes WHERE erased_passes.pass_type_identifier = passes.pass_type_identifier
                                                  AND erased_passes.serial_number = passes.serial_number)
                ORDER BY voided_changed_at LIMIT ?
                """, .integer(Milliseconds.of(cutoff)), .integer(Int64(limit))
            )).map { PassKey(passTypeIdentifier: try $0.string("pass_type_identifier"), serialNumber: try $0.string("serial_number")) }
        }
    }
}
