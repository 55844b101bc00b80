internal import CPostgres

/// The statements prepared on one PostgreSQL connection, by SQL text (as written, with `?`
/// placeholders) and parameter types.
///
/// `PQexecParams` makes the server parse and plan every statement afresh; on a small box where the
/// server shares the cores with Passwright that was most of its CPU per request. Statement texts are
/// code, so the set stays small; it is bounded anyway, and forgotten whenever the server may have
/// dropped them (a reset connection, a schema change).
///
/// Keyed by the text as written, so the rewrite of its placeholders (`PostgresPlaceholders`) runs
/// once, when the statement is prepared: run for every query it was 6 % of the server's CPU for a
/// list of serials on PostgreSQL (`perf`, DWARF).
struct PostgresStatements {
    private var names: [Key: String] = [:]
    private var nextNumber = 0
    private static let limit = 256

    private struct Key: Hashable {
        let text: String
        let types: [Oid]
    }

    /// The server-side name of `sql` prepared with `types` (one per parameter), preparing it on
    /// `handle` first if needed; throws `parameterCount` when the text's placeholders and the
    /// parameters differ in number.
    mutating func name(for sql: String, types: [Oid], on handle: PostgresHandle) throws -> String {
        let key = Key(text: sql, types: types)
        if let name = names[key] { return name }
        let (text, placeholders) = PostgresPlaceholders.rewrite(sql)
        guard placeholders == types.count else {
            throw StorageError.parameterCount(engine: .postgres, sql: sql, placeholders: placeholders, values: types.count)
        }
        if names.count >= Self.limit {
            try forgetAll(on: handle)
        }
        nextNumber += 1
        let name = "passwright_\(nextNumber)"
        _ = try PostgresSession.check(PQprepare(handle.pointer, name, text, Int32(types.count), types), sql: sql, on: handle)
        names[key] = name
        return name
    }

    /// Whether preparing `sql` with `types` would first drop every prepared statement (the set is
    /// full and does not hold it): statements bound but not sent yet must go out before.
    func dropsAll(toPrepare sql: String, types: [Oid]) -> Bool {
        names.count >= Self.limit && names[Key(text: sql, types: types)] == nil
    }

    /// Forgets every statement locally; after a reset the server has none left.
    mutating func forget() {
        names.removeAll()
    }

    /// Drops every statement on the server too, so none holds a plan of a changed table.
    mutating func forgetAll(on handle: PostgresHandle) throws {
        guard !names.isEmpty else { return }
        names.removeAll()
        _ = try PostgresSession.check(PQexec(handle.pointer, "DEALLOCATE ALL"), sql: "DEALLOCATE ALL", on: handle)
    }
}
