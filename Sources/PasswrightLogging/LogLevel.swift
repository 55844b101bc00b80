/// How important a log event is; events below a logger's level are dropped before they are formatted.
public enum LogLevel: String, Sendable, Codable, Comparable, CaseIterable {
    /// `debug` for tracing, `info` for lifecycle, `warning` for degraded service, `error` for failures.
    case debug, info, warning, error

    /// Orders levels from `debug` (least) to `error` (most important).
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.severity < rhs.severity
    }

    private var severity: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }
}
