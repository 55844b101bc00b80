/// Spaces pushes at a pace that follows how fast devices are answered: each push gets the next slot,
/// `1/rate` seconds after the previous one, or now if the pacer has been idle; and every half second
/// the rate moves by what devices' calls after pushes took (their 90th percentile over the last
/// second). Above the target the rate falls to 85 % of what was actually sent in the last
/// half second (signing ahead may hold pushes below the rate, and a cut from an unused rate would
/// take effect only several cuts later) — not after a pause or a trickle under the floor, which
/// slow no device — at most once per `cooldown`, because a push shows in the
/// calls only after the device's own delay (up to seconds). At or below the target, or with no calls
/// to judge by, it grows by a tenth, up to `ceiling` (`--push-rate`), but only while pushes go at
/// the rate: an unused rate does not drift up. So a wave neither idles the server nor queues devices
/// behind it, and the next wave starts at the pace the last one found (the fleet benchmark,
/// BENCHMARKS.md).
///
/// Pushes whose slots fall within one `tick` (10 ms) are released together at its end, so a worker
/// wakes a hundred times a second rather than once a push: one push at a time, each after its own
/// timer, cost three times the CPU of pushes sent together (a thread woken for each timer, then the
/// client's thread for each send; `Benchmarks/push.sh` at 3,000 pushes/s). The rate over any
/// second is the same.
///
/// A value: the worker keeps it behind its lock and sleeps for the delay it answers, so the pacing is
/// tested without a clock or a socket.
struct PushPacer: Sendable {
    /// Pushes per second at most.
    let ceiling: Double
    /// Pushes per second at least, however slow the calls: a slow database must not stop pushes.
    let floor: Double
    /// The device calls' 90th percentile the pace keeps under, in seconds.
    let target: Double
    /// Pushes per second now.
    private(set) var rate: Double
    /// When the next push may go, in seconds on the caller's clock.
    private var nextSlot: Double = -.infinity
    private var lastAdjustment: Double = -.infinity
    private var lastDecrease: Double = -.infinity
    /// Slots taken since the last adjustment: what was actually sent.
    private var taken = 0

    static let adjustmentPeriod = 0.5
    /// Seconds: pushes whose slots fall within one tick are released together at its end.
    static let tick = 0.01
    static let cooldown = 1.5

    /// A pacer for at most `rate` pushes per second, starting there, keeping devices' calls under `target` seconds.
    init(rate: Int, target: Double = 0.05) {
        precondition(rate >= 1, "a rate is at least one push a second")
        precondition(target > 0, "a target answer time is positive")
        ceiling = Double(rate)
        floor = min(ceiling, 100)
        self.target = target
        self.rate = ceiling
    }

    /// Takes the next slot at `now`; answers how long to wait before sending (0: at once), to the end
    /// of the tick the slot falls in. Idle time is not banked: after a pause the pacer does not burst
    /// to catch up.
    mutating func take(at now: Double) -> Double {
        let slot = max(now, nextSlot)
        nextSlot = slot + 1 / rate
        taken += 1
        guard slot > now else { return 0 }
        // Less a nanosecond's worth, so a slot on a tick's end (up to rounding) stays in that tick.
        return ((slot / Self.tick - 1e-7).rounded(.up) * Self.tick) - now
    }

    /// Whether a half second has passed since the rate last moved: the worker reads the calls' times then.
    func isDueForAdjustment(at now: Double) -> Bool {
        now - lastAdjustment >= Self.adjustmentPeriod
    }

    /// Moves the rate by `deviceCallP90` (seconds, `nil` when no device called lately), once per period.
    mutating func adjust(deviceCallP90: Double?, at now: Double) {
        guard isDueForAdjustment(at: now) else { return }
        // Pushes per second since the last adjustment (none before the first). After a pause (the
        // worker adjusts only when it sends) that says how little was sent, not the pace now.
        let elapsed = now - lastAdjustment
        let sent = Double(taken) / elapsed
        let paused = elapsed > 2 * Self.adjustmentPeriod
        lastAdjustment = now
        taken = 0
        if let deviceCallP90, deviceCallP90 > target {
            // Only pushes sent at the floor's pace or above can be what slows the devices' calls
            // (the floor is the pace always allowed): cutting after a pause or a trickle would make
            // the next wave start near the floor and climb for many seconds.
            guard sent >= floor, now - lastDecrease >= Self.cooldown else { return }
            lastDecrease = now
            rate = max(floor, min(rate, sent) * 0.85)
        } else if paused || sent >= 0.8 * rate {
            rate = min(ceiling, rate * 1.1)
        }
    }
}
