import PassModel
import Storage

/// A row type that belongs to one pass: ``StoredPass`` and ``PassHold``.
protocol PassKeyedRow {
    var key: PassKey { get }
    init(row: Row) throws
}

extension StoredPass: PassKeyedRow {}
extension PassHold: PassKeyedRow {}

/// The one way the store reads the rows of many passes at once: the keys as a `VALUES` list (every
/// key a parameter) joined to the table on its primary key, decoded by key. A join, not
/// `WHERE (type, serial) IN (VALUES …)`: SQLite plans that row-value `IN` as a scan of a whole index
/// of the table, which made every batch of a template-wide change, a roll-out or a bulk job's bundle
/// cost as much as the table is large; the join is one primary-key search per key on both engines
/// (`PassKeyRowsPlanTests`).
enum PassKeyRows {
    /// The rows of `table` for `keys` (at most ``WalletStore/maximumWriteBatch``), with `columns`,
    /// and `suffix` (an `ORDER BY` or a lock clause naming `table`) after the join; `run` executes the query.
    static func select<T: PassKeyedRow>(
        _ type: T.Type, columns: String, from table: String, keys: [PassKey], suffix: String = "",
        _ run: (SQL) async throws -> [Row]
    ) async throws -> [PassKey: T] {
        guard !keys.isEmpty else { return [:] }
        let list = SQL.list("(?, ?)", count: keys.count)
        // Only fixed fragments and placeholders are concatenated; every value is a parameter.
        let rows = try await run(SQL(
            unsafeText: """
                SELECT \(columns) FROM (VALUES \(list)) AS wanted
                JOIN \(table) ON \(table).pass_type_identifier = wanted.column1 AND \(table).serial_number = wanted.column2 \(suffix)
                """,
            parameters: keys.flatMap { [SQLValue.text($0.passTypeIdentifier), .text($0.serialNumber)] }))
        var decoded: [PassKey: T] = [:]
        for row in rows {
            let value = try T(row: row)
            decoded[value.key] = value
        }
        return decoded
    }
}
