import Foundation
import PassModel
import Storage

/// Each pass's history: a `pass_updates` row per change, written by the write path in the change's
/// own transaction (``writePasses(_:)``, and the template roll-out's batches).
extension WalletStore {
    /// The most rows one ``passUpdates(for:limit:)`` call returns.
    public static let maximumHistory = 500

    /// The pass's newest `limit` changes (at most ``maximumHistory``), newest first; a seek on
    /// `pass_updates_pass` (pass, id), however long the history.
    public func passUpdates(for key: PassKey, limit: Int = 50) async throws -> [PassUpdateRecord] {
        let limit = min(max(limit, 1), Self.maximumHistory)
        return try await storing("read the history of the pass \(key)") {
            try await database.query(SQL(
                """
                SELECT id, pass_type_identifier, serial_number, update_tag, changed_at, source, changes FROM pass_updates
                WHERE pass_type_identifier = ? AND serial_number = ?
                ORDER BY id DESC LIMIT ?
                """,
                .text(key.passTypeIdentifier), .text(key.serialNumber), .integer(Int64(limit)))).map(PassUpdateRecord.init(row:))
        }
    }

    /// What `change` changes of `pass`, as ``PassUpdateRecord/changes`` lists it.
    static func changedFields(of pass: StoredPass, by change: PassChange) -> [String] {
        var fields: [String] = []
        if let data = change.data, data != pass.data {
            fields += JSONMembers.changedKeys(from: pass.data, to: data).map { $0.map { "data." + $0 } } ?? ["data"]
        }
        if let overrides = change.overrides, overrides != pass.overrides {
            fields += JSONMembers.changedKeys(from: pass.overrides, to: overrides).map { $0.map { "overrides." + $0 } } ?? ["overrides"]
        }
        if let voided = change.voided, voided != pass.voided { fields.append("voided") }
        if let version = change.templateVersion, version != pass.templateVersion { fields.append("templateVersion") }
        return fields
    }

    /// `fields` as the JSON array text the `changes` column holds.
    static func changesText(_ fields: [String]) -> String {
        "[" + fields.map(jsonString).joined(separator: ",") + "]"
    }

    /// `string` as a JSON string literal.
    private static func jsonString(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20: text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// Rows per multi-row history `INSERT`, well under both engines' parameter limits (5 values a row).
    private static let historyBatchSize = 200

    /// Records one history row per written pass, in the write's transaction, under the tag it drew
    /// (``drawTagLater(_:)``): one `INSERT` per batch, each with the transaction's next statement.
    static func recordUpdates(_ records: [(key: PassKey, source: String, changes: [String])], at now: Int64, in transaction: Transaction) async throws {
        let tag = drawnTag(transaction.engine)
        for batch in records.batches(of: historyBatchSize) {
            var parameters: [SQLValue] = []
            for record in batch {
                parameters += [
                    .text(record.key.passTypeIdentifier), .text(record.key.serialNumber), .integer(now), .text(record.source), .text(changesText(record.changes)),
                ]
            }
            // Only fixed fragments and placeholders are concatenated; every value is a parameter.
            try await transaction.executeLater(SQL(
                unsafeText: """
                    INSERT INTO pass_updates (pass_type_identifier, serial_number, update_tag, changed_at, source, changes)
                    VALUES \(SQL.list("(?, ?, \(tag), ?, ?, ?)", count: batch.count))
                    """,
                parameters: parameters))
        }
    }
}
