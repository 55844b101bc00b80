import Locking
import PasswrightLogging

/// Log events a server under test wrote, so a test can check what reached the log (and, against the
/// response, what did not reach the client).
public final class LogCapture: Sendable {
    private let events = Locked<[LogEvent]>([])

    /// An empty capture.
    public init() {}

    /// Records `event`; the sink of ``logger``.
    public func append(_ event: LogEvent) { events.withLock { $0.append(event) } }

    /// A logger (label `test`, level debug) that records every event here.
    public var logger: Logger {
        Logger(label: "test", level: .debug) { event in self.append(event) }
    }

    /// Every event so far, in order.
    public var recorded: [LogEvent] { events.withLock { $0 } }

    /// Every event as its JSON line, one per line.
    public var text: String { events.withLock { $0.map(\.jsonLine).joined(separator: "\n") } }
}
