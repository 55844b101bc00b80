/// One versioned schema change, applied once per database and recorded in `schema_migrations`.
///
/// Each engine gets its own script because DDL differs (`BLOB` vs `bytea`, `INTEGER PRIMARY KEY` vs
/// `BIGSERIAL`); a script may hold several statements. Versions only grow: a recorded version is
/// never run again, and a recorded version whose name changed is reported instead of skipped.
public struct Migration: Sendable, Hashable {
    /// Position in the schema's history; applied in increasing order.
    public let version: Int
    /// A short name recorded next to the version, checked on later runs to catch renumbering.
    public let name: String
    /// The script run on SQLite.
    public let sqlite: String
    /// The script run on PostgreSQL.
    public let postgres: String

    /// A migration with one script per engine.
    public init(version: Int, name: String, sqlite: String, postgres: String) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// A migration whose script is the same on both engines.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name, sqlite: sql, postgres: sql)
    }

    /// The script for `engine`.
    func script(for engine: DatabaseEngine) -> String {
        switch engine {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }
}
