import Foundation
import PasswrightLogging
import Storage

/// Opens the database at start, waiting for it: with compose (or after a reboot) PostgreSQL may not
/// accept connections for some seconds after the server starts, and exiting at once would leave the
/// restart to luck. Connection failures are retried with exponential backoff, each one logged, until
/// `limit` has passed; any other error (a bad URL, a failed migration) fails at once.
public struct DatabaseStartup: Sendable {
    /// How long to keep trying before giving up (default 60 s).
    public var limit: Duration
    /// The first wait; each next one doubles, up to `maximumDelay`.
    public var initialDelay: Duration
    /// The longest single wait.
    public var maximumDelay: Duration

    /// Creates a retry policy; see each property for its meaning.
    public init(limit: Duration = .seconds(60), initialDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(5)) {
        self.limit = limit
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Opens `configuration`'s database, retrying while it does not accept connections.
    func open(_ configuration: DatabaseConfiguration, poolSize: Int, logger: Logger) async throws -> any Database {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        var delay = initialDelay
        var attempt = 1
        while true {
            do {
                let database = try await configuration.open(poolSize: poolSize)
                if attempt > 1 { logger.info("database answers", ["database": "\(configuration)", "attempts": String(attempt)]) }
                return database
            } catch StorageError.connectionFailed(let engine, let location, let message) {
                let error = StorageError.connectionFailed(engine: engine, location: location, message: message)
                guard clock.now.advanced(by: delay) < deadline else {
                    logger.error("database does not answer; giving up", [
                        "database": "\(configuration)", "attempts": String(attempt), "limit": "\(limit)", "error": "\(error)",
                    ])
                    throw error
                }
                logger.warning("database does not answer yet; retrying", [
                    "database": "\(configuration)", "attempt": String(attempt), "retryIn": "\(delay)", "error": "\(error)",
                ])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, maximumDelay)
                attempt += 1
            }
        }
    }
}
