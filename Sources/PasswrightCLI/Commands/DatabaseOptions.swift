import Foundation
import Storage

/// `--database` and `--data-dir` as `serve`, `backup` and `restore` all read them, so the two copy
/// commands always find the database the server uses.
enum DatabaseOptions {
    static let options: [CommandSpec.Option] = [
        .value("database", "URL", help: "sqlite:PATH or postgres://user@host:port/db (default: sqlite:<data-dir>/passwright.sqlite)."),
        .value("data-dir", "DIR", help: "Folder for the SQLite file and generated secrets (default: ./data)."),
    ]

    /// The data folder: `--data-dir`, else `PASSWRIGHT_DATA_DIR`, else `./data`.
    static func dataDirectory(_ arguments: ParsedArguments, _ environment: [String: String]) -> URL {
        URL(fileURLWithPath: arguments.value("data-dir") ?? environment["PASSWRIGHT_DATA_DIR"] ?? "data")
    }

    /// The database: `--database`, else `PASSWRIGHT_DATABASE`, else the SQLite file in the data folder.
    static func database(_ arguments: ParsedArguments, _ environment: [String: String]) throws -> DatabaseConfiguration {
        let url = arguments.value("database") ?? environment["PASSWRIGHT_DATABASE"]
            ?? "sqlite:\(dataDirectory(arguments, environment).appendingPathComponent("passwright.sqlite").path)"
        do {
            return try DatabaseConfiguration(url: url)
        } catch {
            throw UsageError("--database: \(error)")
        }
    }
}
