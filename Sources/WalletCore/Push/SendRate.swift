/// Pushes APNs accepted per second over a recent window: the pace a wave actually goes at, which is
/// below `--push-rate` whenever signing the passes is slower (the worker signs each slice before
/// sending it), so the outbox's ETA comes from it. A value on the caller's clock (seconds), so it is
/// tested without one.
struct SendRate: Sendable {
    /// How far back the rate looks.
    let window: Double
    /// Accepted pushes by the second they were settled in, oldest first.
    private var seconds: [(second: Int64, count: Int)] = []

    init(window: Double = 10) {
        precondition(window >= 1, "the window is at least a second")
        self.window = window
    }

    /// Counts `count` pushes accepted at `now`.
    mutating func record(_ count: Int, at now: Double) {
        let second = Int64(now.rounded(.down))
        if let last = seconds.last, last.second == second {
            seconds[seconds.count - 1].count += count
        } else {
            seconds.append((second, count))
        }
        forget(before: now)
    }

    /// Pushes per second over the window before `now`, `nil` when none were sent in it.
    mutating func perSecond(at now: Double) -> Double? {
        forget(before: now)
        let total = seconds.reduce(0) { $0 + $1.count }
        return total > 0 ? Double(total) / window : nil
    }

    private mutating func forget(before now: Double) {
        let oldest = Int64((now - window).rounded(.down))
        if let keep = seconds.firstIndex(where: { $0.second > oldest }) {
            seconds.removeFirst(keep)
        } else {
            seconds.removeAll()
        }
    }
}
