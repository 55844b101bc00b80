import Foundation

/// A fresh temporary folder (mode 0700: tests keep keys in it) for one test, removed afterwards
/// whatever happens.
func withScratch<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("passwright-cli-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

extension URL {
    /// The names in this folder, sorted (empty when it does not exist).
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
