/// Spaces pushes at a fixed rate: each push gets the next slot, `1/rate` seconds after the previous
/// one, or now if the pacer has been idle. A value: the worker keeps it behind its lock and sleeps
/// for the delay it answers, so the pacing is tested without a clock or a socket.
struct PushPacer: Sendable {
    /// Seconds between two pushes.
    let interval: Double
    /// When the next push may go, in seconds on the caller's clock.
    private var nextSlot: Double = -.infinity

    /// A pacer for `rate` pushes per second.
    init(rate: Int) {
        precondition(rate >= 1, "a rate is at least one push a second")
        interval = 1 / Double(rate)
    }

    /// Takes the next slot at `now`; answers how long to wait before sending (0: at once). Idle time
    /// is not banked: after a pause the pacer does not burst to catch up.
    mutating func take(at now: Double) -> Double {
        let slot = max(now, nextSlot)
        nextSlot = slot + interval
        return slot - now
    }
}
