internal import CPostgres

/// The statements prepared on one PostgreSQL connection, by SQL text and parameter types.
///
/// `PQexecParams` makes the server parse and plan every statement afresh; on a small box where the
/// server shares the cores with Passwright that was most of its CPU per request. Statement texts are
/// code, so the set stays small; it is bounded anyway, and forgotten whenever the server may have
/// dropped them (a reset connection, a schema change).
struct PostgresStatements {
    private var names: [Key: String] = [:]
    private var nextNumber = 0
    private static let limit = 256

    private struct Key: Hashable {
        let text: String
        let types: [Oid]
    }

    /// The server-side name of `text` prepared with `types`, preparing it on `handle` first if needed.
    mutating func name(for text: String, types: [Oid], sql: String, on handle: PostgresHandle) throws -> String {
        let key = Key(text: text, types: types)
        if let name = names[key] { return name }
        if names.count >= Self.limit {
            try forgetAll(on: handle)
        }
        nextNumber += 1
        let name = "passwright_\(nextNumber)"
        _ = try PostgresSession.check(PQprepare(handle.pointer, name, text, Int32(types.count), types), sql: sql, on: handle)
        names[key] = name
        return name
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
