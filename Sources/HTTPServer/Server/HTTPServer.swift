import Logging
import Locking
/// An HTTP/1.1 server on libmicrohttpd that runs an `async` responder for every request.
///
/// TLS is terminated by a reverse proxy in front of it. Typical use is inside the service's task group:
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080), responder: router)
/// try await server.run()   // until the task is cancelled; then drains and stops
/// ```
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(MicroHTTPDaemon)
        case stopping
        case stopped
    }

    /// What the server was created with.
    public let configuration: HTTPServerConfiguration
    private let dispatcher: RequestDispatcher
    private let logger: Logger
    private let state = Locked(State.idle)
    private let stoppedSignal = AsyncStream<Void>.makeStream()

    /// Creates a server; nothing listens until `start()` or `run()`.
    public init(configuration: HTTPServerConfiguration, responder: some HTTPResponder, logger: Logger = Logger(label: "http")) {
        self.configuration = configuration
        self.logger = logger
        self.dispatcher = RequestDispatcher(responder: responder, configuration: configuration, logger: logger)
    }

    /// The port the server listens on once started (the system's choice when configured with 0).
    public var port: Int? {
        state.withLock { state in
            if case .running(let daemon) = state { return daemon.port }
            return nil
        }
    }

    /// Binds and starts accepting connections; after it returns, `port` is known and requests are served.
    public func start() throws(HTTPServerError) {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else { throw .alreadyStarted }
            let daemon = try MicroHTTPDaemon(configuration: configuration, dispatcher: dispatcher)
            state = .running(daemon)
            logger.info("listening", ["host": configuration.hostname, "port": "\(daemon.port)"])
        }
    }

    /// Serves until the calling task is cancelled or `shutdown()` is called, then drains and stops.
    /// Starts the server first if `start()` was not called.
    public func run() async throws {
        if case .idle = state.withLock({ $0 }) { try start() }
        for await _ in stoppedSignal.stream {}  // ends when shutdown finishes the stream, or on cancellation
        await shutdown()
    }

    /// Stops gracefully: no new connections, in-flight requests get up to `shutdownGracePeriod` to
    /// finish, then the rest are answered `503`, every connection is closed and the port is released.
    /// Returns once the server is stopped; calling it again (or concurrently) is harmless.
    public func shutdown() async {
        let daemon: MicroHTTPDaemon? = state.withLock { state in
            switch state {
            case .idle:
                state = .stopped
                return nil
            case .running(let daemon):
                state = .stopping
                return daemon
            case .stopping, .stopped:
                return nil
            }
        }
        guard let daemon else {
            await waitUntilStopped()
            return
        }
        logger.info("draining", ["gracePeriod": "\(configuration.shutdownGracePeriod)"])
        dispatcher.beginDraining()
        daemon.quiesce()
        if await !dispatcher.waitUntilIdle(timeout: configuration.shutdownGracePeriod) {
            logger.warning("requests still in flight after the grace period; answering 503")
            dispatcher.close()
            // Give the daemon threads a moment to send those 503s before every connection is closed.
            _ = await dispatcher.waitUntilIdle(timeout: .seconds(1))
        }
        daemon.stop()
        state.withLock { $0 = .stopped }
        stoppedSignal.continuation.finish()
        logger.info("stopped")
    }

    private func waitUntilStopped() async {
        while true {
            if case .stopped = state.withLock({ $0 }) { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
