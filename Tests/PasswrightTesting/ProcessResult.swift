import Foundation

/// What a finished subprocess left behind.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + the signal number when a signal ended it.
    public let status: Int32
    /// Everything written to standard output.
    public let stdout: Data
    /// Everything written to standard error.
    public let stderr: Data

    /// A result as a runner collected it.
    public init(status: Int32, stdout: Data, stderr: Data) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Whether the process exited 0.
    public var succeeded: Bool { status == 0 }

    /// Standard output as text.
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as text.
    public var err: String { String(decoding: stderr, as: UTF8.self) }

    /// Standard output as text, under the name the `openssl` and `unzip` checks read it by.
    public var output: String { out }
    /// Standard error as text, under the name the `openssl` checks read it by.
    public var error: String { err }
    /// Standard output as text, under the name the zip tool checks read it by.
    public var text: String { out }

    /// Shown by `#expect` failures, so a failing test tells what the process said.
    public var description: String { "exit \(status)\n--- stdout\n\(out.prefix(4000))\n--- stderr\n\(err.prefix(4000))" }
}
