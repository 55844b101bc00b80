import Foundation

/// One request's life on its connection, from the head to the response handed to libmicrohttpd, as a
/// value: every event returns the action the executor (`RequestDispatcher`) must perform.
///
/// Three parties move a request forward: the daemon thread (head, body chunks, the calls after a
/// resume), the responder's task (its response or the time limit) and `close()` at shutdown. Keeping
/// their rules in one pure struct lets a lock guard only the struct while the libmicrohttpd calls happen
/// outside it, and lets every transition be tested without a socket. The one ordering libmicrohttpd
/// imposes (resume exactly once, and only after the suspension) is kept here: a response ready when the
/// responder's first step returns is answered at once, without suspending; one that arrives before the
/// executor confirmed the suspension waits for `suspended()`, which then asks for the resume.
struct RequestStateMachine: Sendable {
    enum State: Sendable {
        /// Headers not seen yet.
        case head
        /// Receiving the body, within `limit` bytes.
        case body(HTTPRequest, HTTPRequestPlan, limit: Int, received: ReceivedBody)
        /// A body without a declared length (chunked) outgrew `limit`: it is read and dropped
        /// unbuffered (`dropped` bytes so far) and `413` is sent when it ends, or once more than
        /// `lingerLimit` bytes past the limit went by, since a body that long may never end.
        /// Reading it first is a lingering close: a server that answers and closes with the upload
        /// still unread makes the kernel reset the connection, and the client never sees the `413`.
        case discarding(limit: Int, dropped: Int)
        /// The responder runs; `suspended` once the executor has parked the connection.
        case running(suspended: Bool)
        /// The response is in; `resumed` once the connection was told to wake up (which waits for the
        /// suspension, since libmicrohttpd ignores a resume that comes first).
        case ready(HTTPResponse, resumed: Bool)
        /// The response was handed to libmicrohttpd.
        case answered
    }

    /// What the executor does after an event.
    enum Action: Sendable {
        /// Nothing: keep reading, or the response is not ready yet.
        case proceed
        /// A chunk of a spooled body was written: the upload makes progress, so its receive deadline
        /// starts again (a large upload may take longer than a request head is given, a stalled one not).
        case progressed
        /// Queue this response now (on the daemon thread, inside the access handler).
        case answer(HTTPResponse)
        /// The body is in: start the plan's responder, then report `firstStepEnded()`.
        case startResponder(HTTPRequest, HTTPRequestPlan)
        /// The responder is still running: suspend the connection, then report `suspended()`.
        case suspend
        /// Wake the suspended connection: libmicrohttpd calls the access handler again, which answers.
        case resume
    }

    /// What the executor learnt from the head.
    enum Head: Sendable {
        /// `RequestHeadCheck` refused it, for this reason.
        case refused(String)
        /// An acceptable head and how the responder will answer it.
        case accepted(HTTPRequest, HTTPRequestPlan)
    }

    private(set) var state = State.head
    /// Set by `serverClosed()`: the responder is never started from now on.
    private(set) var isServerClosed = false
    /// The body limit when the plan sets none (`HTTPServerConfiguration.maxBodySize`).
    let defaultBodyLimit: Int

    /// How many bytes past the limit are read and dropped before `413`, so the client reads it.
    let lingerLimit: Int

    init(defaultBodyLimit: Int, lingerLimit: Int = RequestStateMachine.defaultLingerLimit) {
        self.defaultBodyLimit = defaultBodyLimit
        self.lingerLimit = lingerLimit
    }

    /// 8 MiB: a 3 MB chunked upload to a 1 MiB route is read to its end and its client gets the `413`.
    static let defaultLingerLimit = 8 << 20

    /// Whether the next access-handler call carries the head: the executor reads the headers only then.
    var expectsHead: Bool {
        if case .head = state { return true }
        return false
    }

    /// The first access-handler call: the head is checked and planned.
    mutating func headReceived(_ head: Head) -> Action {
        guard case .head = state else { return .proceed }
        switch head {
        case .refused(let reason):
            state = .answered  // answered before any body byte is read, and the connection is closed
            return .answer(.problem(status: .badRequest, detail: "\(reason).", headers: ["Connection": "close"]))
        case .accepted(let request, let plan):
            if var response = plan.answerAtHead {
                state = .answered
                response.headers["Connection"] = "close"
                return .answer(response)
            }
            let limit = plan.maxBodySize ?? defaultBodyLimit
            if let declared = request.headers["Content-Length"].flatMap(Int.init), declared > limit {
                // Answered from the head, before any body byte: a client that sends nothing until it
                // hears back (or waits for `100 Continue`) learns at once. libmicrohttpd then sends the
                // response, shuts its side and closes; the dispatcher drops the upload's unread bytes
                // before the close (`connectionClosed`) so the client that sent it all still reads this.
                state = .answered
                return .answer(Self.contentTooLarge(limit: limit))
            }
            do {
                state = .body(request, plan, limit: limit, received: plan.spoolsBody ? .spooled(try SpooledBody()) : .memory(Data()))
            } catch {
                state = .answered
                var response = error.response
                response.headers["Connection"] = "close"
                return .answer(response)
            }
            return .proceed
        }
    }

    /// A chunk of the body arrived (never empty).
    mutating func bodyChunk(_ bytes: UnsafeRawBufferPointer) -> Action {
        switch state {
        case .body(let request, let plan, let limit, var received):
            state = .answered  // drop the enum's reference so the append below does not copy the buffer
            guard received.count + bytes.count <= limit else {
                state = .discarding(limit: limit, dropped: received.count + bytes.count)
                return .proceed
            }
            do {
                try received.append(bytes)
            } catch {
                state = .answered
                var response = error.response
                response.headers["Connection"] = "close"
                return .answer(response)
            }
            state = .body(request, plan, limit: limit, received: received)
            return plan.spoolsBody ? .progressed : .proceed
        case .discarding(let limit, let dropped):
            // A body that goes on past the linger bound may never end: answer now and close the
            // connection instead of reading it forever.
            guard dropped + bytes.count > limit + lingerLimit else {
                state = .discarding(limit: limit, dropped: dropped + bytes.count)
                return .proceed
            }
            state = .answered
            var response = Self.contentTooLarge(limit: limit)
            response.headers["Connection"] = "close"
            return .answer(response)
        case .ready(let response, _):
            state = .answered
            return .answer(response)
        case .head, .running, .answered:
            return .proceed
        }
    }

    /// An access-handler call without data: the body is complete, or (after a resume) libmicrohttpd
    /// asks for the response. It uses the same call for both.
    mutating func bodyEnded() -> Action {
        switch state {
        case .body(var request, let plan, _, let received):
            guard !isServerClosed else {
                state = .answered
                return .answer(Self.shuttingDown)
            }
            state = .running(suspended: false)
            switch received {
            case .memory(let data): request.body = data
            case .spooled(let file): request.spooledBody = file
            }
            return .startResponder(request, plan)
        case .discarding(let limit, _):
            state = .answered
            return .answer(Self.contentTooLarge(limit: limit))
        case .ready(let response, _):
            state = .answered
            return .answer(response)
        case .head, .running, .answered:
            return .proceed
        }
    }

    /// The executor suspended the connection after `startResponder`.
    mutating func suspended() -> Action {
        switch state {
        case .running(suspended: false):
            state = .running(suspended: true)
            return .proceed
        case .ready(let response, resumed: false):
            state = .ready(response, resumed: true)
            return .resume
        case .head, .body, .discarding, .running, .ready, .answered:
            return .proceed
        }
    }

    /// The responder's first step, run on the daemon thread, returned: answer now if it finished (or
    /// `close()` or the time limit answered for it), else suspend the connection until it does.
    mutating func firstStepEnded() -> Action {
        switch state {
        case .running(suspended: false):
            return .suspend
        case .ready(let response, resumed: false):
            state = .answered
            return .answer(response)
        case .head, .body, .discarding, .running, .ready, .answered:
            return .proceed
        }
    }

    /// The responder answered; ignored when the request was already answered otherwise.
    mutating func responderFinished(_ response: HTTPResponse) -> Action {
        complete(with: response)
    }

    /// The responder ran past `HTTPServerConfiguration.requestTimeLimit`: the client gets `503` now.
    mutating func timeLimitExceeded() -> Action {
        complete(with: Self.tookTooLong)
    }

    /// The server is shutting down: a running responder's client gets `503` at once, and a request still
    /// arriving gets it instead of starting the responder.
    mutating func serverClosed() -> Action {
        isServerClosed = true
        return complete(with: Self.shuttingDown)
    }

    private mutating func complete(with response: HTTPResponse) -> Action {
        guard case .running(let suspended) = state else { return .proceed }
        state = .ready(response, resumed: suspended)
        return suspended ? .resume : .proceed
    }

    static let shuttingDown = HTTPResponse.problem(status: .serviceUnavailable, detail: "The server is shutting down.")

    static let tookTooLong = HTTPResponse.problem(
        status: .serviceUnavailable, detail: "The request took longer than the server allows."
    )

    static func contentTooLarge(limit: Int) -> HTTPResponse {
        .problem(status: .contentTooLarge, detail: "The request body is larger than the \(limit) bytes this resource accepts.")
    }
}

/// The body received so far: in memory, or written to a spool file for a route that asks for it.
enum ReceivedBody: Sendable {
    case memory(Data)
    case spooled(SpooledBody)

    var count: Int {
        switch self {
        case .memory(let data): data.count
        case .spooled(let file): file.count
        }
    }

    /// Appends a chunk; a spool file's write can fail (`507` when the disk is full).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(HTTPError) {
        switch self {
        case .memory(var data):
            self = .memory(Data())  // drop this enum's reference so the append does not copy the buffer
            data.append(contentsOf: bytes)
            self = .memory(data)
        case .spooled(let file):
            try file.append(bytes)
        }
    }
}
