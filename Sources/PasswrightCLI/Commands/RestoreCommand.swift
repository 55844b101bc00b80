import Foundation
import Storage
import WalletCore

/// `passwright restore`: puts a backup back in place of the SQLite database.
struct RestoreCommand: Subcommand {
    static let spec = CommandSpec(
        name: "restore",
        abstract: "Replace the SQLite database with a backup made by `passwright backup` (servers stopped).",
        discussion: """
        The backup is checked first (PRAGMA integrity_check, and a schema this build knows), then copied
        beside the database and renamed over it. Refused while any server has the database open: stop
        them all first. The database's old -wal and -shm files are removed with it.
        Exit status: 0 restored, 1 refused or failed, 64 usage (or a PostgreSQL database).
        """,
        options: [
            .value("from", "FILE", help: "The backup to put back (required)."),
        ] + DatabaseOptions.options)

    let from: String
    let database: DatabaseConfiguration

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        guard let from = arguments.value("from") else { throw UsageError("--from FILE is required: the backup to put back") }
        self.from = from
        database = try DatabaseOptions.database(arguments, environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let file = database.sqliteFile else {
            console.err(DatabaseCopyAdvice.notSQLite(database, verb: "restore it"))
            return .usage
        }
        let backup = try SQLiteBackup.inspect(from)
        guard let version = backup.migrationVersion else {
            console.err("Error: \(from) is a SQLite database but not Passwright's (it has no schema_migrations table)")
            return .failure
        }
        guard version <= WalletServices.schemaVersion else {
            console.err("Error: \(from) has schema version \(version); this build knows up to \(WalletServices.schemaVersion): restore it with the newer passwright that made it")
            return .failure
        }
        let report = try SQLiteBackup.restore(from, into: file)
        console.out("restored \(from) into \(file): \(report.pages) pages, schema version \(version); start the server to serve it")
        return .success
    }
}
