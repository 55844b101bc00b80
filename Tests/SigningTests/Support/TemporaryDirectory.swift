import Foundation

/// Runs `body` with a fresh temporary folder that is removed afterwards, whatever happens.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("passwright-signing-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Writes `text` to `file` with `permissions`.
func write(_ data: Data, to file: URL, permissions: Int = 0o600) throws {
    try data.write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path)
}
