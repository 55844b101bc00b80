/// How long the server took to answer the calls devices make after a push (list updated serials,
/// fetch the pass or order) over the last second: the signal the push pace follows. A value on the
/// caller's clock (seconds), so it is tested without one; ``DeviceCallMonitor`` keeps it for a process.
struct DeviceCallTimes: Sendable {
    /// How far back the times count.
    let window: Double
    /// The most samples kept: at thousands of calls a second the newest still describe the window.
    let capacity: Int
    /// Answer times with when they ended, oldest first, in a ring once `capacity` is reached.
    private var samples: [(at: Double, seconds: Double)] = []
    private var next = 0

    init(window: Double = 1, capacity: Int = 2048) {
        precondition(window > 0 && capacity > 0, "a window and room for at least one sample")
        self.window = window
        self.capacity = capacity
    }

    /// Counts one call that took `seconds` and ended at `now`.
    mutating func record(_ seconds: Double, at now: Double) {
        if samples.count < capacity {
            samples.append((now, seconds))
        } else {
            samples[next] = (now, seconds)
            next = (next + 1) % capacity
        }
    }

    /// The `quantile` (0…1) of the answer times of calls that ended in the window before `now`;
    /// `nil` when none did (no device is calling: nothing to slow down for).
    func quantile(_ quantile: Double, at now: Double) -> Double? {
        let recent = samples.lazy.filter { now - $0.at <= window }.map(\.seconds).sorted()
        guard !recent.isEmpty else { return nil }
        let index = min(recent.count - 1, Int((Double(recent.count) * quantile).rounded(.up)) - 1)
        return recent[max(0, index)]
    }
}
