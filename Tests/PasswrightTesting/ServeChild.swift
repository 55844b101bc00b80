import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `passwright serve` (the built binary) as a child process on port 0, as a user runs it: the test
/// chooses the rest of the command line and the environment, and talks to it over real sockets.
public final class ServeChild: Sendable {
    /// The running child.
    public let process: RunningProcess
    /// The port it listens on (it chose a free one).
    public let port: Int

    private init(process: RunningProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// `http://127.0.0.1:<port>`, for clients that take a base URL (`--server`).
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts `passwright serve --port 0 arguments…` with ``Repository/childEnvironment(adding:)``;
    /// returns once it says where it listens (and kills it when it never does).
    public static func start(_ arguments: [String], environment: [String: String], directory: URL? = nil) async throws -> ServeChild {
        let process = try RunningProcess(
            try Repository.passwrightBinary(), ["serve", "--port", "0"] + arguments,
            environment: Repository.childEnvironment(adding: environment), directory: directory)
        do {
            // Generous: a ThreadSanitizer build imports and lints every sample template at start, on a
            // machine running other tests in parallel.
            let text = try await process.waitForStderr(#"serving on http://127\.0\.0\.1:(\d+)"#, timeout: .seconds(180))
            return ServeChild(process: process, port: try Int(text).orThrow("serve printed port '\(text)'"))
        } catch {
            process.signal(SIGKILL)
            _ = try? await process.wait()
            throw error
        }
    }

    /// SIGKILL: no chance to finish anything, as in a crash or an OOM kill.
    public func kill() async throws -> ProcessResult {
        process.signal(SIGKILL)
        return try await process.wait()
    }

    /// SIGTERM, then waits for the graceful exit.
    public func stop() async throws -> ProcessResult {
        process.signal(SIGTERM)
        return try await process.wait()
    }
}

/// Runs `body` with a `passwright serve` child (see ``ServeChild/start(_:environment:directory:)``)
/// and always kills it afterwards, whatever `body` did.
public func withServeChild<T>(
    _ arguments: [String], environment: [String: String], _ body: (ServeChild) async throws -> T
) async throws -> T {
    let server = try await ServeChild.start(arguments, environment: environment)
    return try await withCleanup {
        try await body(server)
    } cleanup: {
        _ = try? await server.kill()
    }
}
