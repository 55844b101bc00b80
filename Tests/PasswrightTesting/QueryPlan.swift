import Storage

/// How an engine would run a statement, one line per step as its `EXPLAIN` prints them, so that a
/// test can pin which index a hot-path query starts from instead of timing it.
public struct QueryPlan: Sendable, CustomStringConvertible {
    /// The engine that planned it; the lines are in its own words.
    public let engine: DatabaseEngine
    /// SQLite: the `detail` of each `EXPLAIN QUERY PLAN` row (`SEARCH registrations USING …`), outer
    /// loop first. PostgreSQL: the lines of `EXPLAIN`'s text format (`Index Scan using … on …`).
    public let lines: [String]

    /// The lines, for a failing expectation's message.
    public var description: String { lines.joined(separator: "\n") }
}

extension Database {
    /// The plan of `sql` with its parameters bound, as the engine would run it now (the statement
    /// itself does not run).
    public func queryPlan(of sql: SQL) async throws -> QueryPlan {
        switch engine {
        case .sqlite:
            let rows = try await query(SQL(unsafeText: "EXPLAIN QUERY PLAN " + sql.text, parameters: sql.parameters))
            return QueryPlan(engine: engine, lines: try rows.map { try $0.string("detail") })
        case .postgres:
            let rows = try await query(SQL(unsafeText: "EXPLAIN " + sql.text, parameters: sql.parameters))
            return QueryPlan(engine: engine, lines: try rows.map { try $0.string("QUERY PLAN") })
        }
    }
}
