import Foundation
import PassModel
import Storage

/// Held notifying changes, read here; stored, replaced and removed only by ``writePasses(_:)``, in the
/// same transaction as the pass's write and under the pass's row lock, so a hold and its pass never
/// disagree.
extension WalletStore {
    /// The pass's held change, if any.
    public func hold(_ key: PassKey) async throws -> PassHold? {
        try await holds([key])[key]
    }

    /// The held changes of `keys` (at most ``maximumWriteBatch``), by pass.
    public func holds(_ keys: [PassKey]) async throws -> [PassKey: PassHold] {
        guard !keys.isEmpty else { return [:] }
        return try await storing("read the held changes of \(keys.count) passes") {
            // One statement, so a plain read: on SQLite a transaction would queue this behind every
            // write for the one writer (a roll-out's next page waited for the page being written).
            try await PassKeyRows.select(PassHold.self, columns: PassHold.columns, from: "held_changes", keys: keys) {
                try await database.query($0)
            }
        }
    }

    /// Held changes due by now, the oldest first.
    public func dueHolds(limit: Int = 200) async throws -> [PassHold] {
        try await storing("read the held changes that are due") {
            try await database.query(SQL(
                unsafeText: "SELECT \(PassHold.columns) FROM held_changes WHERE release_at <= ? ORDER BY release_at LIMIT ?",
                parameters: [.integer(clock.nowMilliseconds()), .integer(Int64(limit))])).map(PassHold.init(row:))
        }
    }

    /// When the next held change is due, if any is waiting.
    public func nextHoldRelease() async throws -> Date? {
        try await storing("read when the next held change is due") {
            try await database.query(SQL("SELECT MIN(release_at) AS next FROM held_changes")).first
                .flatMap { try $0.optionalInt64("next") }.map(Milliseconds.date)
        }
    }

    /// Held changes waiting.
    public func holdCount() async throws -> Int {
        try await storing("count the held changes") {
            try await database.query(SQL("SELECT COUNT(*) AS count FROM held_changes"))[0].int("count")
        }
    }

    /// The held changes of `keys`, read in the caller's transaction.
    static func holds(_ keys: [PassKey], in transaction: Transaction) async throws -> [PassKey: PassHold] {
        try await PassKeyRows.select(PassHold.self, columns: PassHold.columns, from: "held_changes", keys: keys) {
            try await transaction.query($0)
        }
    }

    /// After a batch's writes landed: the notification time of the `written` passes whose change
    /// notifies, one statement per pass type (the primary key's first column and an `IN` list of
    /// serials, a key search per pass on both engines) rather than one per pass.
    static func recordNotifications(_ requests: [PassWriteRequest], written: Set<PassKey>, now: Int64, in transaction: Transaction) async throws {
        let notified = requests.filter { $0.notifies && written.contains($0.key) }.map(\.key)
        for (passType, keys) in Dictionary(grouping: notified, by: \.passTypeIdentifier) {
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            _ = try await transaction.execute(SQL(
                unsafeText: "UPDATE passes SET last_notified_at = ? WHERE pass_type_identifier = ? AND serial_number IN (\(SQL.placeholders(keys.count)))",
                parameters: [.integer(now), .text(passType)] + keys.map { .text($0.serialNumber) }))
        }
    }

    /// After a request's write landed: its hold stored, replaced or removed, in its transaction.
    static func recordHold(_ request: PassWriteRequest, now: Int64, in transaction: Transaction) async throws {
        let key = request.key
        switch request.hold {
        case .keep:
            break
        case .remove:
            _ = try await transaction.execute(SQL(
                "DELETE FROM held_changes WHERE pass_type_identifier = ? AND serial_number = ?",
                .text(key.passTypeIdentifier), .text(key.serialNumber)))
        case .replace(let hold):
            precondition(hold.key == key, "a write replaces its own pass's hold")
            _ = try await transaction.execute(SQL(
                """
                INSERT INTO held_changes (pass_type_identifier, serial_number, edits, template_version, release_at, held_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (pass_type_identifier, serial_number) DO UPDATE SET
                    edits = excluded.edits, template_version = excluded.template_version, release_at = excluded.release_at
                """,
                .text(key.passTypeIdentifier), .text(key.serialNumber), .text(hold.edits),
                hold.templateVersion.map(SQLValue.integer) ?? .null, .integer(hold.releaseAtMilliseconds), .integer(now)))
        }
    }
}
