import Locking

/// Keeps the answer times of devices' calls after pushes for this process: the HTTP layer records
/// each, the push worker reads their 90th percentile to slow its pace when devices would queue
/// (``PushPacer``). Shared by reference between the two; its own clock, so neither needs the other's.
public final class DeviceCallMonitor: Sendable {
    private let times = Locked(DeviceCallTimes())
    private let started = ContinuousClock.now

    public init() {}

    private var now: Double { (ContinuousClock.now - started) / .seconds(1) }

    /// Counts one device call that took `elapsed`, ending now.
    public func record(_ elapsed: Duration) {
        let now = now
        times.withLock { $0.record(elapsed / .seconds(1), at: now) }
    }

    /// The 90th percentile of the answer times of the last second, `nil` when no device called.
    public var recentP90: Double? {
        let now = now
        return times.withLock { $0.quantile(0.9, at: now) }
    }
}
