import Storage

/// How an engine would run a statement, one line per step as its `EXPLAIN` prints them, so that a
/// test can pin which index a hot-path query starts from instead of timing it.
public struct QueryPlan: Sendable, CustomStringConvertible {
    /// The engine that planned it; the lines are in its own words.
    public let engine: DatabaseEngine
    /// SQLite: the `detail` of each `EXPLAIN QUERY PLAN` row (`SEARCH registrations USING …`), outer
    /// loop first. PostgreSQL: the lines of `EXPLAIN`'s text format (`Index Scan using … on …`) of the
    /// statement's generic plan.
    public let lines: [String]

    /// The lines, for a failing expectation's message.
    public var description: String { lines.joined(separator: "\n") }
}

extension Database {
    /// The plan of `sql` as a store runs it (the statement itself does not run). SQLite: `EXPLAIN QUERY
    /// PLAN` with the parameters bound. PostgreSQL: the *generic* plan, planned without the values:
    /// stores prepare every statement, and from a statement's sixth execution PostgreSQL runs its
    /// generic plan unless one planned for the values is estimated cheaper. A generic plan is the one
    /// that went wrong before: bulk job claims read a whole job each, planned on a freshly loaded table.
    /// The parameters must be integers, plain texts or nulls (they are written into `EXECUTE`).
    public func queryPlan(of sql: SQL) async throws -> QueryPlan {
        switch engine {
        case .sqlite:
            let rows = try await query(SQL(unsafeText: "EXPLAIN QUERY PLAN " + sql.text, parameters: sql.parameters))
            return QueryPlan(engine: engine, lines: try rows.map { try $0.string("detail") })
        case .postgres:
            let values = sql.parameters.map { value -> String in
                switch value {
                case .integer(let number): return String(number)
                case .text(let text):
                    precondition(!text.contains("'") && !text.contains("\\"), "a test value with a quote: \(text)")
                    return "'\(text)'"
                case .null: return "NULL"
                default: preconditionFailure("only integers, texts and nulls: \(value)")
                }
            }
            return try await transaction { transaction in
                _ = try await transaction.execute(SQL("SET LOCAL plan_cache_mode = force_generic_plan"))
                _ = try await transaction.execute(SQL(unsafeText: "PREPARE generic_plan_probe AS " + sql.postgresText))
                let arguments = values.isEmpty ? "" : "(\(values.joined(separator: ", ")))"
                let rows = try await transaction.query(SQL(unsafeText: "EXPLAIN EXECUTE generic_plan_probe\(arguments)"))
                _ = try await transaction.execute(SQL("DEALLOCATE generic_plan_probe"))
                return QueryPlan(engine: .postgres, lines: try rows.map { try $0.string("QUERY PLAN") })
            }
        }
    }
}
