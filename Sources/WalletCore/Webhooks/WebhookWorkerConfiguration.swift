import Foundation

/// How the webhook worker delivers: its identity among instances, its pace, and when it retries.
public struct WebhookWorkerConfiguration: Sendable {
    /// Names this instance's claims.
    public var instance: String
    /// How long a claim holds a delivery before another instance may take it over.
    public var lease: Duration
    /// How long one delivery may take, connecting included; a 2xx within it counts.
    public var timeout: Duration
    /// The waits between attempts; after the last one fails the delivery is given up and the endpoint
    /// disabled. The default (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h) spans about three days.
    public var retryDelays: [Duration]
    /// Each wait is spread by up to this fraction either way, so a recovering receiver is not hit by
    /// every instance's retries at the same moment.
    public var jitter: Double
    /// The longest an idle worker sleeps without a signal (a safety net; commits ring it).
    public var idleDelay: Duration

    public init(
        instance: String = "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))",
        lease: Duration = .seconds(60), timeout: Duration = .seconds(15),
        retryDelays: [Duration] = [
            .seconds(5), .seconds(300), .seconds(1800), .seconds(7200), .seconds(18_000), .seconds(36_000), .seconds(50_400),
            .seconds(72_000), .seconds(72_000),
        ],
        jitter: Double = 0.2, idleDelay: Duration = .seconds(30)
    ) {
        self.instance = instance
        self.lease = lease
        self.timeout = timeout
        self.retryDelays = retryDelays
        self.jitter = jitter
        self.idleDelay = idleDelay
    }
}
