import Logging
import Locking
import Foundation
import Synchronization

/// The bridge between libmicrohttpd's callbacks and an `async` responder.
///
/// Daemon threads never wait for a handler: once the body is in, the connection is suspended, the
/// responder runs in a task, and the task resumes the connection with its response. Every suspension and
/// resumption happens under one lock together with the `closed` flag, so after `close()` no connection is
/// suspended and none will be resumed: the daemon can then be stopped safely.
final class RequestDispatcher: Sendable {
    private struct Registry {
        /// Requests between their request line and their completion callback.
        var active: [ObjectIdentifier: InFlightRequest] = [:]
        /// Requests whose head libmicrohttpd has not handed to `handle` yet, by connection. libmicrohttpd
        /// calls the completion callback only for requests that reached the access handler, so one it
        /// refuses itself (e.g. a query with more arguments than fit its memory pool) is released when
        /// its connection closes instead.
        var awaitingHandler: [Int: InFlightRequest] = [:]
        /// Set by `close()`: no new suspension, every suspended connection already resumed.
        var closed = false

        /// `context` reached the access handler or completed: its connection no longer owes it a release.
        mutating func stopAwaitingHandler(_ context: InFlightRequest) {
            if awaitingHandler[context.connectionKey] === context { awaitingHandler[context.connectionKey] = nil }
        }
    }

    let responder: any HTTPResponder
    let configuration: HTTPServerConfiguration
    let logger: Logger
    /// Cuts off connections too slow to deliver a request; `nil` when the configuration has no timeout.
    let deadlines: ReceiveDeadlines?
    private let registry = Locked(Registry())
    private let draining = Atomic<Bool>(false)
    private let lastDaemonMessage = Locked<String?>(nil)

    init(responder: any HTTPResponder, configuration: HTTPServerConfiguration, logger: Logger) {
        self.responder = responder
        self.configuration = configuration
        self.logger = logger
        self.deadlines = configuration.connectionTimeout.map(ReceiveDeadlines.init(limit:))
    }

    // MARK: Callbacks from the daemon

    /// A request line arrived: track the request until its completion.
    func begin(target: String, connectionKey: Int) -> InFlightRequest {
        let context = InFlightRequest(target: target, connectionKey: connectionKey)
        registry.withLock { registry in
            registry.active[ObjectIdentifier(context)] = context
            registry.awaitingHandler[connectionKey] = context
        }
        return context
    }

    /// The request completed (answered, failed or the connection closed).
    func end(_ context: InFlightRequest) {
        registry.withLock { registry in
            _ = registry.active.removeValue(forKey: ObjectIdentifier(context))
            registry.stopAwaitingHandler(context)
        }
    }

    /// A connection opened.
    func connectionOpened(_ connection: MicroHTTPDConnection) {
        deadlines?.opened(connection)
    }

    /// A connection is closing (after the completion callbacks of its requests). A request that never
    /// reached the access handler gets no completion callback: it is ended here, and the reference
    /// handed to libmicrohttpd in `microHTTPDRequestStarted` is released.
    func connectionClosed(_ connection: MicroHTTPDConnection) {
        deadlines?.closed(connection)
        let orphan: InFlightRequest? = registry.withLock { registry in
            guard let context = registry.awaitingHandler.removeValue(forKey: connection.key) else { return nil }
            registry.active.removeValue(forKey: ObjectIdentifier(context))
            return context
        }
        if let orphan { Unmanaged.passUnretained(orphan).release() }
    }

    /// One access-handler call: headers first, then body chunks, then the end of the body, and after
    /// a resume, the response. Returns `false` to make libmicrohttpd close the connection.
    func handle(_ context: InFlightRequest, connection: MicroHTTPDConnection, method: String, upload: UnsafeRawBufferPointer) -> Bool {
        enum Next {
            case proceed
            case answer(HTTPResponse)
            case start(HTTPRequest, HTTPRequestPlan)
        }
        if !context.reachedHandler.exchange(true, ordering: .relaxed) {
            registry.withLock { $0.stopAwaitingHandler(context) }
        }
        let next: Next = context.phase.withLock { phase in
            switch phase {
            case .head:
                let headers = connection.headers()
                if let refusal = RequestHeadCheck.refusal(method: method, target: context.target, headers: headers) {
                    phase = .answered  // answered before any body byte is read, and the connection is closed
                    return .answer(.problem(status: .badRequest, detail: "\(refusal).", headers: ["Connection": "close"]))
                }
                let head = HTTPRequest(
                    method: HTTPMethod(rawValue: method),
                    target: RequestHeadCheck.originForm(context.target),
                    headers: headers,
                    remoteAddress: connection.remoteAddress()
                )
                let plan = responder.plan(for: head)
                let limit = plan.maxBodySize ?? configuration.maxBodySize
                if let declared = head.headers["Content-Length"].flatMap(Int.init), declared > limit {
                    phase = .answered  // answered before any body byte is read; libmicrohttpd then closes
                    return .answer(contentTooLarge(limit: limit))
                }
                phase = .body(head, plan, limit: limit, received: Data())
                return .proceed
            case .body(let head, let plan, let limit, var received):
                phase = .answered  // drop the enum's reference so the append below does not copy the buffer
                guard !upload.isEmpty else {
                    var request = head
                    request.body = received
                    return .start(request, plan)
                }
                guard received.count + upload.count <= limit else {
                    phase = .discarding(limit: limit, dropped: received.count + upload.count)
                    return .proceed
                }
                received.append(contentsOf: upload)
                phase = .body(head, plan, limit: limit, received: received)
                return .proceed
            case .discarding(let limit, let dropped):
                guard !upload.isEmpty else {
                    phase = .answered
                    return .answer(contentTooLarge(limit: limit))
                }
                // A body that goes on past twice the limit may never end: answer now and close the
                // connection instead of reading it forever.
                guard dropped + upload.count > 2 * limit else {
                    phase = .discarding(limit: limit, dropped: dropped + upload.count)
                    return .proceed
                }
                phase = .answered
                var response = contentTooLarge(limit: limit)
                response.headers["Connection"] = "close"
                return .answer(response)
            case .ready(let response):
                phase = .answered
                return .answer(response)
            case .running, .answered:
                return .proceed
            }
        }
        switch next {
        case .proceed:
            return true
        case .answer(let response):
            deadlines?.received(connection)
            return send(response, on: connection)
        case .start(let request, let plan):
            deadlines?.received(connection)
            return start(request, plan: plan, context: context, connection: connection)
        }
    }

    /// Records a libmicrohttpd diagnostic; the last one explains a failed start.
    func daemonMessage(_ text: String) {
        lastDaemonMessage.withLock { $0 = text }
        logger.warning("libmicrohttpd", ["message": text])
    }

    /// The last diagnostic libmicrohttpd gave, if any.
    func takeLastDaemonMessage() -> String? {
        lastDaemonMessage.withLock { message in
            defer { message = nil }
            return message
        }
    }

    // MARK: Shutdown

    /// From now on responses ask clients to close their connection.
    func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }

    /// Waits until no request is in flight, or the timeout passes; returns whether it became idle.
    func waitUntilIdle(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if registry.withLock({ $0.active.isEmpty }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return registry.withLock { $0.active.isEmpty }
    }

    /// Resumes every suspended connection with `503` and cancels its handler; later requests get `503`
    /// at once. Afterwards no connection is suspended, which `MHD_stop_daemon` requires.
    func close() {
        let unavailable = HTTPResponse.problem(status: .serviceUnavailable, detail: "The server is shutting down.")
        registry.withLock { registry in
            registry.closed = true
            for context in registry.active.values {
                context.phase.withLock { phase in
                    guard case .running(let connection, let task) = phase else { return }
                    task?.cancel()
                    phase = .ready(unavailable)
                    connection.resume()
                }
            }
        }
    }

    // MARK: Private

    private func start(_ request: HTTPRequest, plan: HTTPRequestPlan, context: InFlightRequest, connection: MicroHTTPDConnection) -> Bool {
        let suspended = registry.withLock { registry in
            guard !registry.closed else { return false }
            context.phase.withLock { $0 = .running(connection, task: nil) }
            connection.suspend()
            return true
        }
        guard suspended else {
            context.phase.withLock { $0 = .answered }
            return send(.problem(status: .serviceUnavailable, detail: "The server is shutting down."), on: connection)
        }
        let task = Task { await self.run(request, plan: plan, context: context) }
        context.phase.withLock { phase in
            if case .running(let connection, nil) = phase { phase = .running(connection, task: task) }
        }
        return true
    }

    /// Runs the responder against the request time limit; whichever finishes first answers.
    private func run(_ request: HTTPRequest, plan: HTTPRequestPlan, context: InFlightRequest) async {
        let limit = configuration.requestTimeLimit
        await withTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { await plan.respond(request) }
            group.addTask {
                guard (try? await Task.sleep(for: limit)) != nil else { return nil }
                self.logger.warning(
                    "request exceeded the time limit",
                    ["method": request.method.rawValue, "path": request.path, "limit": "\(limit)"]
                )
                return .problem(status: .serviceUnavailable, detail: "The request took longer than the server allows.")
            }
            if case .some(.some(let response)) = await group.next() {
                finish(context, with: response)
            }
            group.cancelAll()
        }
    }

    /// Hands the response to the suspended connection and wakes it, unless `close()` already did.
    private func finish(_ context: InFlightRequest, with response: HTTPResponse) {
        registry.withLock { _ in
            context.phase.withLock { phase in
                guard case .running(let connection, _) = phase else { return }
                phase = .ready(response)
                connection.resume()
            }
        }
    }

    private func send(_ response: HTTPResponse, on connection: MicroHTTPDConnection) -> Bool {
        var response = response
        if draining.load(ordering: .relaxed) { response.headers["Connection"] = "close" }
        switch connection.queue(response) {
        case .queued:
            return true
        case .invalidHeader(let name):
            logger.error("response header refused", ["header": name, "status": "\(response.status.code)"])
            return connection.queue(.problem(status: .internalServerError)) == .queued
        case .refused:
            logger.warning("libmicrohttpd refused a response", ["status": "\(response.status.code)"])
            return false
        }
    }

    private func contentTooLarge(limit: Int) -> HTTPResponse {
        .problem(status: .contentTooLarge, detail: "The request body is larger than the \(limit) bytes this resource accepts.")
    }
}
