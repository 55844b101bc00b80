import Locking
import Foundation
import Synchronization

/// One request's state from its request line to its completion callback.
///
/// Created when libmicrohttpd reports the request target, released when it reports completion; the
/// phase is behind a lock because the handler's task and the daemon thread both move it forward.
final class InFlightRequest: Sendable {
    enum Phase: Sendable {
        /// Headers not seen yet.
        case head
        /// Receiving the body, within `limit` bytes.
        case body(HTTPRequest, HTTPRequestPlan, limit: Int, received: Data)
        /// The body outgrew `limit` mid-stream (no `Content-Length` announced it): the rest is dropped
        /// unbuffered (`dropped` bytes so far) and `413` is sent when it ends, or once more than twice
        /// the limit went by, since a body that long may never end.
        case discarding(limit: Int, dropped: Int)
        /// The connection is suspended while the responder runs in `task`.
        case running(MicroHTTPDConnection, task: Task<Void, Never>?)
        /// The connection was resumed with this response, to be queued on the daemon thread.
        case ready(HTTPResponse)
        /// The response was handed to libmicrohttpd.
        case answered
    }

    /// The request target exactly as received (`/path?query`), before any decoding.
    let target: String
    /// The connection it arrived on (`MicroHTTPDConnection.key`).
    let connectionKey: Int
    let phase = Locked<Phase>(.head)
    /// Set by the first access-handler call, after which libmicrohttpd will call the completion callback.
    let reachedHandler = Atomic<Bool>(false)

    init(target: String, connectionKey: Int) {
        self.target = target
        self.connectionKey = connectionKey
    }
}
