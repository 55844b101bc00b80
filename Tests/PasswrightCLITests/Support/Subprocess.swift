import Locking
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished subprocess left behind.
struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + the signal number when a signal ended it.
    let status: Int32
    let stdout: Data
    let stderr: Data

    /// Standard output as text.
    var out: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as text.
    var err: String { String(decoding: stderr, as: UTF8.self) }

    /// Shown by `#expect` failures, so a failing test tells what the process said.
    var description: String { "exit \(status)\n--- stdout\n\(out.prefix(4000))\n--- stderr\n\(err.prefix(4000))" }
}

/// Runs real programs (`passwright`, `openssl`, `unzip`, `python3`) as child processes.
///
/// Blocking work happens on dedicated threads, never on the Swift concurrency pool (two threads on a
/// two-core machine, easily starved by parallel tests). Standard output and standard error are
/// drained concurrently, so a child writing a lot to both never deadlocks on a full pipe.
enum Subprocess {
    /// A child whose stdin we still write to may exit first; the write must fail, not kill the tests.
    private static let ignoreBrokenPipe: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments` and returns once it has exited and both pipes are drained.
    static func run(_ executable: URL, _ arguments: [String], stdin: Data? = nil,
                    environment: [String: String]? = nil, directory: URL? = nil) async throws -> ProcessResult {
        _ = ignoreBrokenPipe
        return try await onThread {
            try runBlocking(executable, arguments, stdin: stdin, environment: environment, directory: directory)
        }
    }

    /// Runs a tool found on `PATH` (through `/usr/bin/env`).
    static func tool(_ name: String, _ arguments: [String], stdin: Data? = nil,
                     environment: [String: String]? = nil, directory: URL? = nil) async throws -> ProcessResult {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, stdin: stdin, environment: environment, directory: directory)
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], stdin: Data?,
                                    environment: [String: String]?, directory: URL?) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe()
        let input = stdin.map { _ in Pipe() }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        let outputDrain = PipeDrain(output.fileHandleForReading)
        let errorDrain = PipeDrain(errors.fileHandleForReading)
        if let input, let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        let stdoutBytes = outputDrain.wait()
        let stderrBytes = errorDrain.wait()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: stdoutBytes, stderr: stderrBytes)
    }

    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}

/// Reads one pipe to its end on its own thread.
private final class PipeDrain: Sendable {
    private let bytes = Locked(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            let data = handle.readDataToEndOfFile()
            bytes.withLock { $0 = data }
            done.signal()
        }.start()
    }

    /// Blocks until the writer closed the pipe, then returns everything read.
    func wait() -> Data {
        done.wait()
        return bytes.withLock { $0 }
    }
}
