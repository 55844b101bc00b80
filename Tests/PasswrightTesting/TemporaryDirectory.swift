import Foundation

/// Runs `body` with a fresh temporary folder that is removed afterwards, whatever happens.
///
/// The folder has mode 0700 because tests keep private keys in it; every suite uses this one helper
/// so that no test leaves keys behind in a world-readable place.
public func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// Like ``withTemporaryDirectory(_:)`` for an `async` body (a test that runs processes or servers
/// in the folder).
public func withScratch<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Writes `data` to `file` (creating its folder) with `permissions`: 0600 unless said otherwise, as
/// key files need.
public func write(_ data: Data, to file: URL, permissions: Int = 0o600) throws {
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path)
}

private func makeTemporaryDirectory() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("passwright-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return folder
}
