import Foundation
import Storage

/// `passwright backup`: a consistent copy of the SQLite database while the server keeps serving.
struct BackupCommand: Subcommand {
    static let spec = CommandSpec(
        name: "backup",
        abstract: "Copy the SQLite database to a file while servers keep using it (SQLite's online backup).",
        discussion: """
        The copy is one snapshot: every write acknowledged before it began is in it, and servers keep
        writing meanwhile. It is checked with PRAGMA integrity_check and written atomically. Put it back
        with `passwright restore --from FILE`. For PostgreSQL use pg_dump -Fc (see docs/backups.md).
        Exit status: 0 copied and checked, 1 failed, 64 usage (or a PostgreSQL database).
        """,
        options: [
            .value("out", "FILE", help: "Where to write the copy (required; refused if it exists, unless --force)."),
            .flag("force", help: "Replace FILE if it exists."),
        ] + DatabaseOptions.options)

    let out: String
    let force: Bool
    let database: DatabaseConfiguration

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        guard let out = arguments.value("out") else { throw UsageError("--out FILE is required: where to write the copy") }
        self.out = out
        force = arguments.flag("force")
        database = try DatabaseOptions.database(arguments, environment)
    }

    func run(console: Console) async throws -> ExitStatus {
        guard let file = database.sqliteFile else {
            console.err(DatabaseCopyAdvice.notSQLite(database, verb: "back it up"))
            return .usage
        }
        if FileManager.default.fileExists(atPath: out), !force {
            console.err("Error: \(out) exists; choose another --out, or add --force to replace it")
            return .failure
        }
        let bar = ProgressBar(console: console, title: "backup")
        let report = try SQLiteBackup.backUp(from: file, to: out) { copied, total in
            bar.update(fraction: total == 0 ? 1 : Double(copied) / Double(total), detail: "\(copied)/\(total) pages")
        }
        bar.finish()
        console.out("backed up \(file) to \(out): \(report.pages) pages, \(report.bytes) bytes, schema version \(report.migrationVersion.map(String.init) ?? "none"), integrity ok")
        return .success
    }
}
