import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process that runs for a while (`passwright serve`, a stand-in): the test reads its output
/// as it comes, waits for a line saying it is ready, and signals it.
public final class RunningProcess: Sendable {
    private let process: ChildProcess
    private let output: PipeDrain
    private let errors: PipeDrain

    /// Starts `executable`; stdin is `/dev/null`, stdout and stderr are drained as they come.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil) throws {
        (process, output, errors) = try Subprocess.start(executable, arguments, environment: environment, directory: directory)
    }

    /// The child's pid.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { process.isRunning }

    /// Standard error so far.
    public var stderrText: String { String(decoding: errors.snapshot(), as: UTF8.self) }

    /// Standard output so far.
    public var stdoutText: String { String(decoding: output.snapshot(), as: UTF8.self) }

    /// Waits (up to `timeout`) until standard error matches `pattern`; returns the first capture group.
    public func waitForStderr(_ pattern: String, timeout: Duration = .seconds(60)) async throws -> String {
        try await waitFor(pattern, in: errors, named: "stderr", timeout: timeout)
    }

    /// Waits (up to `timeout`) until standard output matches `pattern`; returns the first capture group.
    public func waitForStdout(_ pattern: String, timeout: Duration = .seconds(60)) async throws -> String {
        try await waitFor(pattern, in: output, named: "stdout", timeout: timeout)
    }

    private func waitFor(_ pattern: String, in drain: PipeDrain, named name: String, timeout: Duration) async throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            let text = String(decoding: drain.snapshot(), as: UTF8.self)
            if let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
                return String(text[Range(range, in: text)!])
            }
            if !process.isRunning, drain.isFinished { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = String(decoding: drain.snapshot(), as: UTF8.self)
        throw FixtureError("\(name) never matched /\(pattern)/; it was:\n\(text.suffix(4000))\n--- stderr\n\(stderrText.suffix(2000))")
    }

    /// Sends signal `number` (`SIGTERM`, `SIGKILL`) to the child.
    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit and both pipes to close.
    public func wait() async throws -> ProcessResult {
        try await onThread { self.waitBlocking() }
    }

    /// Like ``wait()`` for synchronous code: blocks the calling thread.
    public func waitBlocking() -> ProcessResult {
        let stdout = output.wait(), stderr = errors.wait()
        return ProcessResult(status: process.waitUntilExit(), stdout: stdout, stderr: stderr)
    }
}
