import Locking

/// A one-way latch: `wait()` suspends until `open()`, without sleeping or polling — how a test holds
/// one task at a chosen point while others run.
public final class Gate: Sendable {
    /// A closed gate.
    public init() {}

    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Suspends until the gate is open (at once if it is).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and so will later ones.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
