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
        return ProcessResult(status: process.waitUntilExit(), stdout: stdoutBytes, stderr: stderrBytes)
    }

    static let envExecutable = URL(fileURLWithPath: "/usr/bin/env")

    /// Starts a child with stdout and stderr drained as they come and stdin from `input` (else
    /// `/dev/null`): the one place a child process is set up.
    static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, directory: URL?, input: Pipe? = nil
    ) throws -> (ChildProcess, stdout: PipeDrain, stderr: PipeDrain) {
        let output = Pipe(), errors = Pipe()
        let child = try ChildProcess(
            executable, arguments, environment: environment, directory: directory,
            stdin: input.map { .descriptor($0.fileHandleForReading.fileDescriptor) } ?? .null,
            stdout: .descriptor(output.fileHandleForWriting.fileDescriptor),
            stderr: .descriptor(errors.fileHandleForWriting.fileDescriptor)
        )
        // The child holds its own copies; ours must close for the drains to see the end.
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        try input?.fileHandleForReading.close()
        return (child, PipeDrain(output.fileHandleForReading), PipeDrain(errors.fileHandleForReading))
    }
}
