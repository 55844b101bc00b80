import Foundation

/// The package checkout, found from this file's place in `Tests/PassCompilerTests/Support/`.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let templates = root.appendingPathComponent("Templates", isDirectory: true)
}
