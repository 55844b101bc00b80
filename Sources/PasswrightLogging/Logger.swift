import Foundation

/// A minimal structured logger writing JSON lines, so the server logs without an outside package.
///
/// The sink is injectable so tests can read what was logged (e.g. that a 500's cause stays in the log).
public struct Logger: Sendable {
    /// Which part of the program logs through this logger.
    public var label: String
    /// Events below this level are dropped.
    public var level: LogLevel
    private let sink: @Sendable (LogEvent) -> Void

    /// Creates a logger; by default events go to standard error as JSON lines.
    public init(label: String, level: LogLevel = .info, sink: @escaping @Sendable (LogEvent) -> Void = Logger.standardError) {
        self.label = label
        self.level = level
        self.sink = sink
    }

    /// Writes one event as a JSON line to standard error (standard output stays free for program output).
    public static let standardError: @Sendable (LogEvent) -> Void = { event in
        FileHandle.standardError.write(Data((event.jsonLine + "\n").utf8))
    }

    /// Logs an event if its level is at or above this logger's level. The fields are built only then:
    /// a request's access-log line costs nothing when `info` is off.
    public func log(_ level: LogLevel, _ message: String, _ fields: @autoclosure () -> [String: String] = [:]) {
        guard level >= self.level else { return }
        sink(LogEvent(level: level, label: label, message: message, fields: fields()))
    }

    /// Logs at `debug`.
    public func debug(_ message: String, _ fields: @autoclosure () -> [String: String] = [:]) { log(.debug, message, fields()) }
    /// Logs at `info`.
    public func info(_ message: String, _ fields: @autoclosure () -> [String: String] = [:]) { log(.info, message, fields()) }
    /// Logs at `warning`.
    public func warning(_ message: String, _ fields: @autoclosure () -> [String: String] = [:]) { log(.warning, message, fields()) }
    /// Logs at `error`.
    public func error(_ message: String, _ fields: @autoclosure () -> [String: String] = [:]) { log(.error, message, fields()) }
}
