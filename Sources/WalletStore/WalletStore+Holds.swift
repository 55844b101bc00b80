import Foundation
import PassModel
import Storage

/// Held notifying changes: written when their moment comes by ``writePass(_:expectedTag:change:notifies:releasesHold:)``
/// with `releasesHold`, which removes the hold in the same transaction as the write.
extension WalletStore {
    /// The pass's held change, if any.
    public func hold(_ key: PassKey) async throws -> PassHold? {
        try await storing("read the held change of \(key)") {
            try await database.query(SQL(
                """
                SELECT pass_type_identifier, serial_number, data, overrides, voided, release_at FROM pass_holds
                WHERE pass_type_identifier = ? AND serial_number = ?
                """, .text(key.passTypeIdentifier), .text(key.serialNumber))).first.map(PassHold.init(row:))
        }
    }

    /// Stores `hold` as the pass's held change if the pass still has `expectedTag` and its held
    /// change is still `replacing` (`nil`: none): the compare-and-swap of a hold, so two edits folding
    /// into one hold at once cannot lose either. Answers whether it was stored.
    public func saveHold(_ hold: PassHold, expectedTag: Int64, replacing previous: PassChange?) async throws -> Bool {
        guard let data = hold.change.data, let overrides = hold.change.overrides, let voided = hold.change.voided else {
            preconditionFailure("a held change carries the whole state to write")
        }
        let key = hold.key
        return try await storing("hold a change of \(key)") {
            try await database.transaction { transaction in
                let lock = transaction.engine == .postgres ? " FOR NO KEY UPDATE" : ""
                let tags = try await transaction.query(SQL(
                    unsafeText: "SELECT update_tag FROM passes WHERE pass_type_identifier = ? AND serial_number = ?" + lock,
                    parameters: [.text(key.passTypeIdentifier), .text(key.serialNumber)]))
                guard let tag = tags.first, try tag.int64("update_tag") == expectedTag else { return false }
                let held = try await transaction.query(SQL(
                    """
                    SELECT pass_type_identifier, serial_number, data, overrides, voided, release_at FROM pass_holds
                    WHERE pass_type_identifier = ? AND serial_number = ?
                    """, .text(key.passTypeIdentifier), .text(key.serialNumber))).first.map(PassHold.init(row:))
                guard held?.change == previous else { return false }
                _ = try await transaction.execute(SQL(
                    """
                    INSERT INTO pass_holds (pass_type_identifier, serial_number, data, overrides, voided, release_at, held_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (pass_type_identifier, serial_number) DO UPDATE SET
                        data = excluded.data, overrides = excluded.overrides, voided = excluded.voided, release_at = excluded.release_at
                    """,
                    .text(key.passTypeIdentifier), .text(key.serialNumber), .text(data), .text(overrides),
                    .integer(voided ? 1 : 0), .integer(hold.releaseAtMilliseconds), .integer(clock.nowMilliseconds())))
                return true
            }
        }
    }

    /// Held changes due by now, the oldest first.
    public func dueHolds(limit: Int = 200) async throws -> [PassHold] {
        try await storing("read the held changes that are due") {
            try await database.query(SQL(
                """
                SELECT pass_type_identifier, serial_number, data, overrides, voided, release_at FROM pass_holds
                WHERE release_at <= ? ORDER BY release_at LIMIT ?
                """, .integer(clock.nowMilliseconds()), .integer(Int64(limit)))).map(PassHold.init(row:))
        }
    }

    /// When the next held change is due, if any is waiting.
    public func nextHoldRelease() async throws -> Date? {
        try await storing("read when the next held change is due") {
            try await database.query(SQL("SELECT MIN(release_at) AS next FROM pass_holds")).first
                .flatMap { try $0.optionalInt64("next") }.map(Milliseconds.date)
        }
    }

    /// Held changes waiting.
    public func holdCount() async throws -> Int {
        try await storing("count the held changes") {
            try await database.query(SQL("SELECT COUNT(*) AS count FROM pass_holds"))[0].int("count")
        }
    }

    /// After a request's write landed: the notification time and the hold, in its transaction.
    static func recordNotification(_ request: PassWriteRequest, written: Bool, now: Int64, in transaction: Transaction) async throws {
        if request.notifies, written {
            _ = try await transaction.execute(SQL(
                "UPDATE passes SET last_notified_at = ? WHERE pass_type_identifier = ? AND serial_number = ?",
                .integer(now), .text(request.key.passTypeIdentifier), .text(request.key.serialNumber)))
        }
        if request.releasesHold {
            _ = try await transaction.execute(SQL(
                "DELETE FROM pass_holds WHERE pass_type_identifier = ? AND serial_number = ?",
                .text(request.key.passTypeIdentifier), .text(request.key.serialNumber)))
        }
    }
}
