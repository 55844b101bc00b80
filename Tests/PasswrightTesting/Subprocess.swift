import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs real programs (`passwright`, `openssl`, `unzip`, `python3`) as child processes, to check the
/// project against implementations that share no code with it.
///
/// Blocking work happens on dedicated threads, never on the Swift concurrency pool (see
/// ``onThread(_:)``). Standard output and standard error are drained concurrently, so a child writing
/// a lot to both never deadlocks on a full pipe. `environment`, when given, replaces the child's whole
/// environment; `nil` passes this process's on.
public enum Subprocess {
    /// A child whose stdin we still write to may exit first; the write must fail, not kill the tests.
    private static let ignoreBrokenPipe: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments` and returns once it has exited and both pipes are drained.
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil, directory: URL? = nil
    ) async throws -> ProcessResult {
        try await onThread {
            try runBlocking(executable, arguments, stdin: stdin, environment: environment, directory: directory)
        }
    }

    /// Runs a tool found on `PATH` (through `/usr/bin/env`).
    public static func tool(
        _ name: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil, directory: URL? = nil
    ) async throws -> ProcessResult {
        try await run(envExecutable, [name] + arguments, stdin: stdin, environment: environment, directory: directory)
    }

    /// Like ``tool(_:_:stdin:environment:directory:)`` for a synchronous test: blocks the calling thread.
    public static func toolBlocking(
        _ name: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> ProcessResult {
        try runBlocking(envExecutable, [name] + arguments, stdin: stdin, environment: environment, directory: directory)
    }

    /// Like ``run(_:_:stdin:environment:directory:)`` for a synchronous test: blocks the calling thread.
    public static func runBlocking(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> ProcessResult {
        _ = ignoreBrokenPipe
        let input = stdin.map { _ in Pipe() }
        let (process, outputDrain, errorDrain) = try start(executable, arguments, environment: environment, directory: directory, input: input)
        if let input, let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        let stdoutBytes = outputDrain.wait()
        let stderrBytes = errorDrain.wait()
        process.waitUntilExit()
        return ProcessResult(status: exitStatus(of: process), stdout: stdoutBytes, stderr: stderrBytes)
    }

    static let envExecutable = URL(fileURLWithPath: "/usr/bin/env")

    /// Starts a child with stdout and stderr drained as they come and stdin from `input` (else
    /// `/dev/null`): the one place a child process is set up.
    static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, directory: URL?, input: Pipe? = nil
    ) throws -> (Process, stdout: PipeDrain, stderr: PipeDrain) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        return (process, PipeDrain(output.fileHandleForReading), PipeDrain(errors.fileHandleForReading))
    }

    /// The exit status, or 128 + the signal number, as a shell reports it.
    static func exitStatus(of process: Process) -> Int32 {
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
