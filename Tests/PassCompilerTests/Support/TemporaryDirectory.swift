import Foundation

/// Runs `body` with a fresh temporary folder that is removed afterwards, whatever happens.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("passwright-compiler-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Writes `data` to `file` with `permissions` (0600 unless said otherwise, as keys need).
func write(_ data: Data, to file: URL, permissions: Int = 0o600) throws {
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path)
}

/// The package checkout, found from this file's place in `Tests/PassCompilerTests/Support/`.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templates = root.appendingPathComponent("Templates", isDirectory: true)
}
