import Foundation
import PassCompiler

/// Where `build` puts a signed archive, `.pkpass` or `.order` alike: standard output for `-`, else a
/// file written atomically (a failed build leaves nothing behind), named by the document when no
/// `--out` is given, with one line saying what was written.
enum ArchiveOutput {
    /// Writes `archive` to `out` (or `defaultPath`) and prints `path (summary, N bytes)`.
    static func write(_ archive: Data, to out: String?, defaultPath: String, summary: String, console: Console) throws {
        if out == "-" {
            console.outBytes(archive)
            return
        }
        let path = out ?? defaultPath
        try AtomicFile.write(archive, to: URL(fileURLWithPath: path))
        console.out("\(path) (\(summary), \(archive.count) bytes)")
    }
}
