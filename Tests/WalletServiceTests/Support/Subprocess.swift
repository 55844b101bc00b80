import Locking
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a finished subprocess left behind.
struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + the signal number when a signal ended it.
    let status: Int32
    let stdout: Data
    let stderr: Data

    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }

    var description: String { "exit \(status)\n--- stdout\n\(out.prefix(4000))\n--- stderr\n\(err.prefix(4000))" }
}

/// Runs real programs (`openssl`, `unzip`, `passwright serve`) as child processes. Blocking work
/// happens on dedicated threads, never on the Swift concurrency pool; stdout and stderr are drained
/// concurrently, so a chatty child never deadlocks on a full pipe.
enum Subprocess {
    /// Runs a tool found on `PATH` to completion.
    static func tool(_ name: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> ProcessResult {
        let child = try RunningProcess(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, environment: environment)
        return try await child.wait()
    }
}

/// A child process that may run for a while: the test reads its output as it comes and signals it.
final class RunningProcess: Sendable {
    private let process: Process
    private let output: PipeDrain
    private let errors: PipeDrain

    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        output = PipeDrain(outputPipe.fileHandleForReading)
        errors = PipeDrain(errorPipe.fileHandleForReading)
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Standard error so far.
    var stderrText: String { String(decoding: errors.snapshot(), as: UTF8.self) }

    /// Standard output so far.
    var stdoutText: String { String(decoding: output.snapshot(), as: UTF8.self) }

    /// Waits (up to `timeout`) until standard error matches `pattern`; returns the first capture group.
    func waitForStderr(_ pattern: String, timeout: Duration = .seconds(60)) async throws -> String {
        try await waitFor(pattern, in: errors, named: "stderr", timeout: timeout)
    }

    /// Waits (up to `timeout`) until standard output matches `pattern`; returns the first capture group.
    func waitForStdout(_ pattern: String, timeout: Duration = .seconds(60)) async throws -> String {
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

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the exit and both pipes to close.
    func wait() async throws -> ProcessResult {
        let process = self.process, output = self.output, errors = self.errors
        return try await onThread {
            let stdout = output.wait(), stderr = errors.wait()
            process.waitUntilExit()
            let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
            return ProcessResult(status: status, stdout: stdout, stderr: stderr)
        }
    }
}

/// Reads one pipe to its end on its own thread, keeping what arrived so far readable.
private final class PipeDrain: Sendable {
    private let bytes = Locked(Data())
    private let finished = Atomic(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                bytes.withLock { $0.append(chunk) }
            }
            finished.store(true, ordering: .sequentiallyConsistent)
            done.signal()
        }.start()
    }

    var isFinished: Bool { finished.load(ordering: .sequentiallyConsistent) }

    func snapshot() -> Data { bytes.withLock { $0 } }

    /// Blocks until the writer closed the pipe, then returns everything read.
    func wait() -> Data {
        done.wait()
        done.signal()
        return snapshot()
    }
}
