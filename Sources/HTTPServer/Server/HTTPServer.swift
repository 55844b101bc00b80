import PasswrightLogging
import Locking
/// An HTTP/1.1 server on libmicrohttpd that runs an `async` responder for every request.
///
/// TLS is terminated by a reverse proxy in front of it. Typical use is inside the service's task group:
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080), responder: router)
/// try await server.run()   // until the task is cancelled; then drains and stops
/// ```
///
/// Every responder runs as a child of one task group, in a lifecycle task that `start()` creates and
/// that `run()` and `shutdown()` await, so nothing a request started outlives the server. The group
/// is not a child of `run()` itself: cancelling `run()` must let in-flight requests finish within the
/// grace period, which a cancelled parent would not (its children are cancelled with it). The drain
/// runs in that task too, so its waits are not cut short when `run()`'s task is cancelled.
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(MicroHTTPDaemon, lifecycle: Task<Void, Never>)
        case stopping(lifecycle: Task<Void, Never>)
        case stopped
    }

    /// What the server was created with.
    public let configuration: HTTPServerConfiguration
    private let dispatcher: RequestDispatcher
    private let logger: Logger
    private let state = Locked(State.idle)
    /// Finished to tell the lifecycle task to drain and stop.
    private let stopRequest = AsyncStream<Void>.makeStream()

    /// Creates a server; nothing listens until `start()` or `run()`.
    public init(configuration: HTTPServerConfiguration, responder: some HTTPResponder, logger: Logger = Logger(label: "http")) {
        self.configuration = configuration
        self.logger = logger
        self.dispatcher = RequestDispatcher(responder: responder, configuration: configuration, logger: logger)
    }

    /// The lifecycle task holds the daemon, not the server: a server dropped while running still stops.
    deinit {
        stopRequest.continuation.finish()
    }

    /// The port the server listens on once started (the system's choice when configured with 0).
    public var port: Int? {
        state.withLock { state in
            if case .running(let daemon, _) = state { return daemon.port }
            return nil
        }
    }

    /// Binds and starts accepting connections; after it returns, `port` is known and requests are served
    /// (by the lifecycle task, so `run()` is not needed for that).
    public func start() throws(HTTPServerError) {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else { throw .alreadyStarted }
            let daemon = try MicroHTTPDaemon(configuration: configuration, dispatcher: dispatcher)
            let lifecycle = Task { [dispatcher, configuration, logger, stopRequested = stopRequest.stream] in
                await Self.serve(daemon, dispatcher: dispatcher, until: stopRequested, configuration: configuration, logger: logger)
            }
            state = .running(daemon, lifecycle: lifecycle)
            logger.info("listening", ["host": configuration.hostname, "port": "\(daemon.port)"])
        }
    }

    /// Serves until the calling task is cancelled or `shutdown()` is called, then drains and stops.
    /// Starts the server first if `start()` was not called.
    public func run() async throws {
        if case .idle = state.withLock({ $0 }) { try start() }
        let lifecycle: Task<Void, Never>? = state.withLock { state in
            switch state {
            case .running(_, let lifecycle), .stopping(let lifecycle): lifecycle
            case .idle, .stopped: nil
            }
        }
        if let lifecycle {
            await withTaskCancellationHandler {
                await lifecycle.value
            } onCancel: {
                _ = self.requestStop()
            }
        }
        await shutdown()
    }

    /// Stops gracefully: no new connections, in-flight requests get up to `shutdownGracePeriod` to
    /// finish, then the rest are answered `503`, every connection is closed and the port is released.
    /// Returns once the server is stopped and every request task has ended; calling it again (or
    /// concurrently) is harmless.
    public func shutdown() async {
        guard let lifecycle = requestStop() else { return }
        await lifecycle.value
        state.withLock { $0 = .stopped }
    }

    /// Moves to `stopping` and tells the lifecycle task; returns that task, or `nil` if never started.
    private func requestStop() -> Task<Void, Never>? {
        let lifecycle: Task<Void, Never>? = state.withLock { state in
            switch state {
            case .idle:
                state = .stopped
                return nil
            case .running(_, let lifecycle):
                state = .stopping(lifecycle: lifecycle)
                return lifecycle
            case .stopping(let lifecycle):
                return lifecycle
            case .stopped:
                return nil
            }
        }
        stopRequest.continuation.finish()
        return lifecycle
    }

    /// The lifecycle task's body: the request group, the sweeper of receive deadlines and the watcher of
    /// responder time limits, and once a stop is requested, the drain.
    private static func serve(
        _ daemon: MicroHTTPDaemon,
        dispatcher: RequestDispatcher,
        until stopRequested: AsyncStream<Void>,
        configuration: HTTPServerConfiguration,
        logger: Logger
    ) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await dispatcher.tasks.run() }  // ends after `daemon.stop()` closes the dispatcher
            group.addTask { await dispatcher.enforceTimeLimits() }
            if let deadlines = dispatcher.deadlines {
                group.addTask {
                    while (try? await Task.sleep(for: .seconds(1))) != nil { deadlines.sweep() }
                }
            }
            for await _ in stopRequested {}
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
            group.cancelAll()  // the sweeper and the time limits; the request tasks were cancelled by the stop already
        }
        logger.info("stopped")
    }
}
