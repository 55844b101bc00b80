import PasswrightLogging
import Locking
import Foundation
import Synchronization

/// The executor between libmicrohttpd's callbacks and an `async` responder: it turns each callback
/// into an event of the request's `RequestStateMachine` and performs the action it returns.
///
/// Daemon threads never wait for a responder: once the body is in, the responder's task starts on the
/// daemon thread and runs there until it first waits (``FirstStepInline``). One that finished is
/// answered in the same callback; otherwise the connection is suspended and the response, when it
/// comes, resumes it. Locks guard the registry and each request's state machine only; suspend, resume
/// and queue happen outside them, in the order the machine allows. `close()` marks the registry
/// closed and every request in it in one sweep, so afterwards no responder starts and every suspended connection has been (or, for one whose
/// suspension was under way, is at once) resumed: the daemon can then be stopped safely.
final class RequestDispatcher: Sendable {
    private struct Registry {
        /// Requests between their request line and their completion callback.
        var active: [ObjectIdentifier: InFlightRequest] = [:]
        /// Requests whose head libmicrohttpd has not handed to `handle` yet, by connection. libmicrohttpd
        /// calls the completion callback only for requests that reached the access handler, so one it
        /// refuses itself (e.g. a query with more arguments than fit its memory pool) is released when
        /// its connection closes instead.
        var awaitingHandler: [Int: InFlightRequest] = [:]
        /// Set by `close()`: requests begun later start closed.
        var closed = false
        /// Shutdown waiting for `active` to empty, by waiter.
        var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0

        /// `request` reached the access handler or completed: its connection no longer owes it a release.
        mutating func stopAwaitingHandler(_ request: InFlightRequest) {
            if awaitingHandler[request.connection.key] === request { awaitingHandler[request.connection.key] = nil }
        }

        /// Forgets `request`; returns the waiters to wake if it was the last one in flight.
        mutating func remove(_ request: InFlightRequest) -> [CheckedContinuation<Void, Never>] {
            active.removeValue(forKey: ObjectIdentifier(request))
            guard active.isEmpty, !idleWaiters.isEmpty else { return [] }
            defer { idleWaiters = [:] }
            return Array(idleWaiters.values)
        }
    }

    let responder: any HTTPResponder
    let configuration: HTTPServerConfiguration
    let logger: Logger
    /// Cuts off connections too slow to deliver a request; `nil` when the configuration has no timeout.
    let deadlines: ReceiveDeadlines?
    /// Answers requests whose responder runs past `HTTPServerConfiguration.requestTimeLimit`.
    let timeLimits: ResponderDeadlines
    /// Where responders run; the server's lifecycle task runs its group.
    let tasks = RequestTasks()
    private let registry = Locked(Registry())
    private let draining = Atomic<Bool>(false)
    private let lastDaemonMessage = Locked<String?>(nil)

    init(responder: any HTTPResponder, configuration: HTTPServerConfiguration, logger: Logger) {
        self.responder = responder
        self.configuration = configuration
        self.logger = logger
        self.deadlines = configuration.connectionTimeout.map(ReceiveDeadlines.init(limit:))
        self.timeLimits = ResponderDeadlines(limit: configuration.requestTimeLimit)
    }

    // MARK: Callbacks from the daemon

    /// A request line arrived: track the request until its completion.
    func begin(target: String, connection: MicroHTTPDConnection) -> InFlightRequest {
        let request = InFlightRequest(target: target, connection: connection, defaultBodyLimit: configuration.maxBodySize)
        let closed = registry.withLock { registry in
            registry.active[ObjectIdentifier(request)] = request
            registry.awaitingHandler[connection.key] = request
            return registry.closed
        }
        // Not in `close()`'s sweep, which came first; nothing else can reach the request yet.
        if closed { _ = request.apply { $0.serverClosed() } }
        return request
    }

    /// The request completed (answered, failed or the connection closed).
    func end(_ request: InFlightRequest) {
        let waiters = registry.withLock { registry in
            registry.stopAwaitingHandler(request)
            return registry.remove(request)
        }
        for waiter in waiters { waiter.resume() }
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
        connection.discardUnreadInput(upTo: RequestStateMachine.defaultLingerLimit)
        let (orphan, waiters) = registry.withLock { registry -> (InFlightRequest?, [CheckedContinuation<Void, Never>]) in
            guard let request = registry.awaitingHandler.removeValue(forKey: connection.key) else { return (nil, []) }
            return (request, registry.remove(request))
        }
        for waiter in waiters { waiter.resume() }
        if let orphan { Unmanaged.passUnretained(orphan).release() }
    }

    /// One access-handler call: headers first, then body chunks, then the end of the body, and after
    /// a resume, the response. Returns `false` to make libmicrohttpd close the connection.
    func handle(_ request: InFlightRequest, method: String, upload: UnsafeRawBufferPointer) -> Bool {
        let action: RequestStateMachine.Action
        if request.machine.withLock({ $0.expectsHead }) {
            // Only this daemon thread moves a request out of its head, so the answer still holds here.
            registry.withLock { $0.stopAwaitingHandler(request) }
            let head = self.head(of: request, method: method)
            action = request.apply { $0.headReceived(head) }
        } else if upload.isEmpty {
            action = request.apply { $0.bodyEnded() }
        } else {
            action = request.apply { $0.bodyChunk(upload) }
        }
        return perform(action, for: request)
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
        // Idle already, as nearly always at a stop: no child tasks, which would wait for the
        // cooperative pool (seconds when it is saturated) only to find nothing to wait for.
        if registry.withLock({ $0.active.isEmpty }) { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.idle()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return self.registry.withLock { $0.active.isEmpty }
            }
            let idle = await group.next() ?? false
            group.cancelAll()
            return idle
        }
    }

    /// Answers every running responder's client `503` and resumes its connection; later requests get
    /// `503` at once, and the responder tasks still running are cancelled. Afterwards no connection
    /// stays suspended, which `MHD_stop_daemon` requires. Idempotent.
    func close() {
        let requests: [InFlightRequest] = registry.withLock { registry in
            guard !registry.closed else { return [] }
            registry.closed = true
            return Array(registry.active.values)
        }
        for request in requests {
            _ = perform(request.apply { $0.serverClosed() }, for: request)
        }
        tasks.finish()
    }

    // MARK: Private

    /// The head as the state machine sees it: refused by `RequestHeadCheck`, or planned by the responder.
    private func head(of request: InFlightRequest, method: String) -> RequestStateMachine.Head {
        let headers = request.connection.headers()
        if let refusal = RequestHeadCheck.refusal(method: method, target: request.target, headers: headers) {
            return .refused(refusal)
        }
        let head = HTTPRequest(
            method: HTTPMethod(rawValue: method),
            target: RequestHeadCheck.originForm(request.target),
            headers: headers,
            remoteAddress: request.connection.remoteAddress()
        )
        return .accepted(head, responder.plan(for: head))
    }

    /// Performs one action of `request`'s state machine; returns whether the connection stays open.
    /// `answer`, `startResponder` and `suspend` come only from daemon-thread events; the other parties
    /// get `resume` or `proceed`.
    private func perform(_ action: RequestStateMachine.Action, for request: InFlightRequest) -> Bool {
        let connection = request.connection
        switch action {
        case .proceed:
            return true
        case .progressed:
            deadlines?.completed(connection)
            return true
        case .resume:
            connection.resume()
            return true
        case .answer(let response):
            deadlines?.received(connection)
            return send(response, on: connection)
        case .startResponder(var head, let plan):
            deadlines?.received(connection)
            if plan.decodesForm, let type = head.contentType, type.accepts(.urlEncodedForm) || type.accepts(.multipartForm) {
                // Here, because libmicrohttpd's form parser needs the connection, which only this call may use.
                head.decodedForm = MicroHTTPDPostProcessor(connection: connection).decode(head.body, contentType: type)
            }
            let started = tasks.start(plan.start) { [head] in await self.respond(to: head, plan: plan, for: request) }
            // Only after `close()`, which has answered the request already; kept for robustness.
            if !started { _ = perform(request.apply { $0.serverClosed() }, for: request) }
            // The responder ran on this thread until it first waited, or to its end.
            return perform(request.apply { $0.firstStepEnded() }, for: request)
        case .suspend:
            connection.suspend()
            // The responder (or `close()`) may have answered while the suspension was under way.
            return perform(request.apply { $0.suspended() }, for: request)
        }
    }

    /// Runs the responder; `timeLimits` answers the client instead if it takes too long (a responder
    /// that ignores the cancellation then still holds its task, but not its client).
    /// A spooled upload's responder is not held to the limit: it reads the whole upload (into the
    /// database, for a bulk job), which takes as long as the upload is large; shutdown still answers it.
    private func respond(to head: HTTPRequest, plan: HTTPRequestPlan, for request: InFlightRequest) async {
        let ticket = plan.spoolsBody ? nil : timeLimits.started(request)
        let response = await plan.respond(head)
        if let ticket { timeLimits.finished(ticket) }
        _ = perform(request.apply { $0.responderFinished(response) }, for: request)
    }

    /// Answers `503` to every request whose responder runs past the time limit, until cancelled.
    func enforceTimeLimits() async {
        await timeLimits.watch { request in
            // No path: like the access log's, it can carry serial numbers and device identifiers.
            logger.warning("request exceeded the time limit", ["limit": "\(timeLimits.limit)"])
            _ = perform(request.apply { $0.timeLimitExceeded() }, for: request)
        }
    }

    /// Returns once no request is in flight, or when the calling task is cancelled.
    private func idle() async {
        let waiter = registry.withLock { registry in
            registry.nextWaiter += 1
            return registry.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = registry.withLock { registry in
                    guard !registry.active.isEmpty, !Task.isCancelled else { return true }
                    registry.idleWaiters[waiter] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            registry.withLock { $0.idleWaiters.removeValue(forKey: waiter) }?.resume()
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
}
