import Foundation

/// How a push worker drains the outbox.
public struct PushWorkerConfiguration: Sendable {
    /// Names this instance's claims, so another instance can take them over after the lease.
    public var instance: String
    /// Rows claimed per round.
    public var batchSize: Int
    /// How long a claim holds before another instance may take it over.
    public var lease: Duration
    /// Pushes in flight at once (they share one HTTP/2 connection per identity).
    public var concurrency: Int
    /// Pause when the outbox has nothing due.
    public var idleDelay: Duration
    /// First retry delay; doubled per failed attempt, with jitter, up to `maximumBackoff`.
    public var baseBackoff: Duration
    /// Longest retry delay.
    public var maximumBackoff: Duration

    /// Creates a configuration with defaults suited to one APNs connection per identity.
    public init(
        instance: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))",
        batchSize: Int = 200, lease: Duration = .seconds(60), concurrency: Int = 64,
        idleDelay: Duration = .milliseconds(200), baseBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(3600)
    ) {
        self.instance = instance
        self.batchSize = batchSize
        self.lease = lease
        self.concurrency = concurrency
        self.idleDelay = idleDelay
        self.baseBackoff = baseBackoff
        self.maximumBackoff = maximumBackoff
    }
}
