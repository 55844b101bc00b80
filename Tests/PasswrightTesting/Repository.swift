import Foundation

/// The package checkout the tests run in, found from this file's place in `Tests/PasswrightTesting/`:
/// the sample templates and the built binary are used as a user would use them.
public enum Repository {
    /// The package root.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Templates/`, the sample templates.
    public static let templates = root.appendingPathComponent("Templates", isDirectory: true)

    /// The environment for a `passwright` child: this process's without any `PASSWRIGHT_*` variable
    /// (so a developer's settings cannot change the outcome), plus `variables`.
    public static func childEnvironment(adding variables: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PASSWRIGHT_") }.merging(variables) { _, new in new }
    }

    /// The `passwright` binary under test: `$PASSWRIGHT_BINARY` (scripts/unit-tests.sh points it at the
    /// sanitizer build's), else `<package root>/.build/debug/passwright`. Throws when it is not built.
    public static func passwrightBinary() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PASSWRIGHT_BINARY"]
            ?? root.appendingPathComponent(".build/debug/passwright").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw FixtureError(
                "passwright binary not found or not executable at \(path): run `swift build --build-tests` first, "
                    + "or set PASSWRIGHT_BINARY to the binary to test")
        }
        return URL(fileURLWithPath: path)
    }
}
