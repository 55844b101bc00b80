import Foundation

/// Where the store lives, parsed from one URL so flags and `PASSWRIGHT_DATABASE_URL` read the same.
///
/// Accepted forms:
/// - `sqlite:./data/passwright.sqlite` (relative or absolute path; `sqlite:///abs/path` also works),
/// - `sqlite::memory:` (a private in-memory database, for tests),
/// - `postgres://user:password@host:5432/db?sslmode=require` or `postgresql://…` (handed to libpq
///   as is, so every libpq URI parameter works).
///
/// Printing a configuration never shows the password.
public struct DatabaseConfiguration: Sendable, CustomStringConvertible, CustomReflectable {
    /// Where the data is kept.
    enum Location: Sendable {
        case sqliteFile(path: String)
        case sqliteMemory
        case postgres(url: String)
    }

    let location: Location

    /// How long a SQLite connection waits for a lock held by another process before failing with
    /// `SQLITE_BUSY`; within one process writes are queued and never wait on the lock.
    public var busyTimeoutMilliseconds: Int = 5_000

    /// Parses a database URL; throws ``StorageError/invalidConfiguration(url:reason:)`` naming the
    /// URL without its password.
    public init(url: String) throws {
        if url.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path == ":memory:" {
                location = .sqliteMemory
                return
            }
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else {
                throw StorageError.invalidConfiguration(url: url, reason: "the SQLite path is empty; use sqlite:./data/passwright.sqlite or sqlite::memory:")
            }
            location = .sqliteFile(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            guard let components = URLComponents(string: url), components.host?.isEmpty == false else {
                throw StorageError.invalidConfiguration(url: Self.redacted(url), reason: "expected postgres://user:password@host:port/database")
            }
            location = .postgres(url: url)
        } else {
            let scheme = url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            throw StorageError.invalidConfiguration(url: "\(scheme):…", reason: "the scheme must be sqlite:, postgres:// or postgresql://")
        }
    }

    /// A SQLite database in the file at `path`; its folder is created on open.
    public static func sqlite(path: String) -> DatabaseConfiguration {
        DatabaseConfiguration(location: .sqliteFile(path: path))
    }

    /// A private in-memory SQLite database that disappears on close.
    public static var sqliteInMemory: DatabaseConfiguration {
        DatabaseConfiguration(location: .sqliteMemory)
    }

    private init(location: Location) {
        self.location = location
    }

    /// The engine this configuration opens.
    /// The SQLite file, `nil` for PostgreSQL or an in-memory database (what backup and restore copy).
    public var sqliteFile: String? {
        if case .sqliteFile(let path) = location { return path }
        return nil
    }

    public var engine: DatabaseEngine {
        switch location {
        case .sqliteFile, .sqliteMemory: .sqlite
        case .postgres: .postgres
        }
    }

    /// The URL with any password removed, safe for logs.
    public var description: String {
        switch location {
        case .sqliteFile(let path): "sqlite:\(path)"
        case .sqliteMemory: "sqlite::memory:"
        case .postgres(let url): Self.redacted(url)
        }
    }

    /// Reflection (`dump`, debuggers) shows the redacted description only.
    public var customMirror: Mirror {
        Mirror(self, children: ["url": description])
    }

    /// Opens the database: the one entry point to both engines.
    ///
    /// `poolSize` bounds the connections: on PostgreSQL the pool's size; on a SQLite file one writer
    /// plus `poolSize - 1` readers (WAL lets them read while the writer writes); an in-memory SQLite
    /// database always has one connection.
    public func open(poolSize: Int = 4) async throws -> any Database {
        guard poolSize >= 1 else {
            throw StorageError.invalidConfiguration(url: description, reason: "the pool size must be at least 1, not \(poolSize)")
        }
        switch location {
        case .sqliteFile, .sqliteMemory:
            return try await SQLiteDatabase.open(self, poolSize: poolSize)
        case .postgres(let url):
            return try await PostgresDatabase.open(url: url, description: description, poolSize: poolSize)
        }
    }

    /// `url` without the password in its user part or in a `password=` query parameter.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "postgres://…" }
        if components.password != nil { components.password = nil }
        components.queryItems = components.queryItems?.map { item in
            item.name.lowercased() == "password" ? URLQueryItem(name: item.name, value: "…") : item
        }
        return components.string ?? "postgres://…"
    }
}
