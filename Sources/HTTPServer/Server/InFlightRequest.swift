import Locking

/// One request from its request line to its completion callback: what libmicrohttpd keeps as the
/// request's context pointer.
///
/// A class because libmicrohttpd holds it by pointer across callbacks; the state machine is behind a
/// lock because the daemon thread, the responder's task and `close()` all move it forward. The lock
/// guards only the value: every libmicrohttpd call happens after it is released.
final class InFlightRequest: Sendable {
    /// The request target exactly as received (`/path?query`), before any decoding.
    let target: String
    /// The connection it arrived on; `close()` needs it to wake a suspended request.
    let connection: MicroHTTPDConnection
    let machine: Locked<RequestStateMachine>

    init(target: String, connection: MicroHTTPDConnection, defaultBodyLimit: Int) {
        self.target = target
        self.connection = connection
        self.machine = Locked(RequestStateMachine(defaultBodyLimit: defaultBodyLimit))
    }

    /// Applies one event under the lock and returns the action to perform after it.
    func apply(_ event: (inout RequestStateMachine) -> RequestStateMachine.Action) -> RequestStateMachine.Action {
        machine.withLock { event(&$0) }
    }
}
