import Storage

/// What `backup` and `restore` say when the database is not a SQLite file: PostgreSQL has its own
/// tools, which copy a live database consistently too.
enum DatabaseCopyAdvice {
    static func notSQLite(_ database: DatabaseConfiguration, verb: String) -> String {
        guard database.engine == .postgres else {
            return "Error: an in-memory database cannot be copied; name a file with --database sqlite:PATH"
        }
        return """
        Error: \(database) is PostgreSQL: \(verb) with PostgreSQL's own tools, e.g.
          pg_dump -Fc --file passwright.dump 'postgres://USER@HOST:PORT/DB'
          pg_restore --clean --if-exists --no-owner --dbname 'postgres://USER@HOST:PORT/DB' passwright.dump
        with the password in ~/.pgpass (PGPASSFILE), not on the command line (docs/backups.md).
        """
    }
}
