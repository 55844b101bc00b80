import Locking

/// The port a running ``WalletService`` bound, learnt once: construction binds nothing (start-up may
/// wait a minute for the database first), so callers of `run()` that need the port (tests on port 0,
/// the CLI's banner, the fuzz targets) wait here. Fails with start-up's error when start-up fails.
final class Listening: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case bound(Int)
        case failed(any Error)
    }

    private let state = Locked(State.waiting([]))

    /// The port, once bound; start-up's error if it failed.
    func port() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let answer: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                case .bound(let port): return .success(port)
                case .failed(let error): return .failure(error)
                }
            }
            if let answer { continuation.resume(with: answer) }
        }
    }

    /// Settles it (only the first call counts) and wakes everyone waiting.
    func settle(_ result: Result<Int, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            switch result {
            case .success(let port): state = .bound(port)
            case .failure(let error): state = .failed(error)
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
