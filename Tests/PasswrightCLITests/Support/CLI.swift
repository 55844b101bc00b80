import Foundation
import PasswrightTesting

/// The real `passwright` executable, run as a child process exactly as a user or a script would.
enum CLI {
    /// The package root.
    static let packageRoot = Repository.root

    /// The binary under test: `$PASSWRIGHT_BINARY`, else `<package root>/.build/debug/passwright`.
    static func binary() throws -> URL {
        try Repository.passwrightBinary()
    }

    /// Runs `passwright arguments…`. The child gets this process's environment without any
    /// `PASSWRIGHT_*` variable (so a developer's settings cannot change the outcome), plus `environment`.
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in directory: URL? = nil) async throws -> ProcessResult {
        try await Subprocess.run(try binary(), arguments, stdin: stdin, environment: Repository.childEnvironment(adding: environment), directory: directory)
    }
}
