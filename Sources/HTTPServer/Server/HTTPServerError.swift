/// Why the server could not start or stop as asked; each case says where and what to change.
public enum HTTPServerError: Error, CustomStringConvertible, Equatable {
    /// The hostname is not an address this machine can bind (resolution failed).
    case invalidHostname(String, reason: String)
    /// A configuration value is outside what the server accepts.
    case invalidConfiguration(field: String, reason: String)
    /// The daemon did not start, typically because the address is taken or not local.
    case bindFailed(host: String, port: Int, reason: String)
    /// `start()` was called on a server that is running or has been shut down.
    case alreadyStarted

    /// A message a user can act on, naming the address or field involved.
    public var description: String {
        switch self {
        case .invalidHostname(let host, let reason):
            "Cannot listen on hostname '\(host)': \(reason). Use an IP address such as 127.0.0.1 or ::1."
        case .invalidConfiguration(let field, let reason):
            "Invalid HTTP server configuration '\(field)': \(reason)."
        case .bindFailed(let host, let port, let reason):
            "Cannot listen on \(host):\(port): \(reason). Is another process using the port?"
        case .alreadyStarted:
            "The HTTP server was already started; create a new HTTPServer to listen again."
        }
    }
}
