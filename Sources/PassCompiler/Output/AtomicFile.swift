import Foundation

/// Writes files so that a reader sees either the old file or the whole new one, never half of one:
/// the bytes go to a temporary file in the same folder, which is then renamed over the target.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed.
    public static func write(_ data: Data, to url: URL) throws(PassCompilerError) {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw .output(path: url.path, message: error.localizedDescription)
        }
    }
}
