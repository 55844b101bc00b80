import PassModel
import Storage

/// A row type that belongs to one pass: ``StoredPass`` and ``PassHold``.
protocol PassKeyedRow {
    var key: PassKey { get }
    init(row: Row) throws
}

extension StoredPass: PassKeyedRow {}
extension PassHold: PassKeyedRow {}

/// The one way the store reads the rows of many passes at once: `WHERE (type, serial) IN (VALUES …)`
/// with every key a parameter, decoded by key.
enum PassKeyRows {
    /// The rows of `table` for `keys` (at most ``WalletStore/maximumWriteBatch``), with `columns`,
    /// and `suffix` (an `ORDER BY` or a lock clause) after the condition; `run` executes the query.
    static func select<T: PassKeyedRow>(
        _ type: T.Type, columns: String, from table: String, keys: [PassKey], suffix: String = "",
        _ run: (SQL) async throws -> [Row]
    ) async throws -> [PassKey: T] {
        guard !keys.isEmpty else { return [:] }
        let list = Array(repeating: "(?, ?)", count: keys.count).joined(separator: ", ")
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        let rows = try await run(SQL(
            unsafeText: "SELECT \(columns) FROM \(table) WHERE (pass_type_identifier, serial_number) IN (VALUES \(list)) \(suffix)",
            parameters: keys.flatMap { [SQLValue.text($0.passTypeIdentifier), .text($0.serialNumber)] }))
        var decoded: [PassKey: T] = [:]
        for row in rows {
            let value = try T(row: row)
            decoded[value.key] = value
        }
        return decoded
    }
}
