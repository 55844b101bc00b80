/// The database engine behind a ``Database``.
///
/// Callers branch on it only where SQL dialects truly differ (migrations carry one script per engine);
/// statements written with `?` placeholders run unchanged on both.
public enum DatabaseEngine: String, Sendable, Hashable, CustomStringConvertible {
    /// SQLite 3, in a file (WAL) or in memory: the laptop default and the single-instance deployment.
    case sqlite
    /// PostgreSQL over libpq: several server instances sharing one store.
    case postgres

    /// The engine's name, as printed in errors and logs.
    public var description: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }
}
