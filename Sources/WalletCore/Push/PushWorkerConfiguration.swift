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
    /// The longest an idle worker sleeps. It wakes at once when a push is queued (by this process,
    /// or on PostgreSQL by any instance sharing the outbox) and when the earliest retry falls due;
    /// this fallback only bounds how late it notices what it could not hear of: a lapsed claim
    /// retried elsewhere, or anything queued while the PostgreSQL listener was reconnecting.
    public var idleDelay: Duration
    /// The first pause before the PostgreSQL listener reconnects after losing its connection;
    /// doubled per failure up to 30 seconds. The `idleDelay` fallback covers the gap.
    public var listenerRetry: Duration
    /// First retry delay; doubled per failed attempt, with jitter, up to `maximumBackoff`.
    public var baseBackoff: Duration
    /// Longest retry delay.
    public var maximumBackoff: Duration
    /// Pushes per second this instance sends at most, `nil` for no limit: a template-wide change to
    /// 100,000 devices goes out at a steady pace instead of all at once.
    public var rate: Int?
    /// The 90th percentile of devices' calls after pushes (list serials, fetch) the pace keeps under:
    /// above it the worker slows down so devices do not queue, below it speeds up to `rate`.
    public var deviceCallTarget: Duration

    /// Creates a configuration with defaults suited to one APNs connection per identity.
    public init(
        instance: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))",
        batchSize: Int = 1000, lease: Duration = .seconds(60), concurrency: Int = 256,
        idleDelay: Duration = .seconds(5), baseBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(3600),
        rate: Int? = nil, listenerRetry: Duration = .seconds(1), deviceCallTarget: Duration = .milliseconds(50)
    ) {
        precondition(deviceCallTarget > .zero, "a target answer time is positive")
        precondition(rate.map { $0 >= 1 } ?? true, "a push rate is at least one push a second")
        self.instance = instance
        self.batchSize = batchSize
        self.lease = lease
        self.concurrency = concurrency
        self.idleDelay = idleDelay
        self.listenerRetry = listenerRetry
        self.baseBackoff = baseBackoff
        self.maximumBackoff = maximumBackoff
        self.rate = rate
        self.deviceCallTarget = deviceCallTarget
    }

    /// Rows to claim per round: no more than the rate sends in a quarter of the lease, so a paced
    /// batch is sent long before another instance may take its claims over.
    var claimSize: Int {
        guard let rate else { return batchSize }
        let seconds = Double(lease.components.seconds) / 4
        return max(1, min(batchSize, Int(Double(rate) * seconds)))
    }
}
