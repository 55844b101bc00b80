import Locking

/// How the SQLite transaction that several writes shared ended, for each of them to wait on.
///
/// A write whose body has run is not done until its transaction commits: it waits here, and learns
/// the commit's failure too (no write is acknowledged before it is durable).
final class SQLiteCommitOutcome: Sendable {
    private enum State {
        case pending([CheckedContinuation<Void, any Error>])
        case settled(Result<Void, any Error>)
    }

    private let state = Locked(State.pending([]))

    /// Ends the wait of every write in the group, now and later; only the first call counts.
    func settle(_ result: Result<Void, any Error>) {
        let waiters: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            guard case .pending(let waiters) = state else { return [] }
            state = .settled(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// Returns once the group committed; throws what ended it otherwise.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let settled: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .pending(let waiters):
                    state = .pending(waiters + [continuation])
                    return nil
                case .settled(let result):
                    return result
                }
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}
