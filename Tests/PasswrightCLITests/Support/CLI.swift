import Foundation
import PasswrightTesting

/// The real `passwright` executable, run as a child process exactly as a user or a script would.
enum CLI {
    /// The package root, three folders above this file (`Tests/PasswrightCLITests/Support/`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary under test: `$PASSWRIGHT_BINARY`, else `<package root>/.build/debug/passwright`.
    static func binary() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PASSWRIGHT_BINARY"]
            ?? packageRoot.appendingPathComponent(".build/debug/passwright").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw BinaryMissing(path: path) }
        return URL(fileURLWithPath: path)
    }

    /// Runs `passwright arguments…`. The child gets this process's environment without any
    /// `PASSWRIGHT_*` variable (so a developer's settings cannot change the outcome), plus `environment`.
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in directory: URL? = nil) async throws -> ProcessResult {
        var childEnvironment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PASSWRIGHT_") }
        childEnvironment.merge(environment) { _, new in new }
        return try await Subprocess.run(try binary(), arguments, stdin: stdin, environment: childEnvironment, directory: directory)
    }

    /// Thrown when the binary has not been built.
    struct BinaryMissing: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "passwright binary not found or not executable at \(path): run `swift build --build-tests` first, or set PASSWRIGHT_BINARY to the binary to test"
        }
    }
}
