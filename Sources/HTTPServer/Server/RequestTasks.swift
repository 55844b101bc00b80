import Locking

/// The responder tasks of one server: started on the daemon thread that received the request (see
/// ``FirstStepInline``), cancelled together when the server closes, and awaited by its lifecycle task.
///
/// A task group cannot take a child from a daemon thread (only its own task may add one), and a
/// hand-over to the group's task was the thread switch this avoids; so the tasks are tracked here,
/// and ``run()`` returns only once ``finish()`` was called and every one of them has ended.
final class RequestTasks: Sendable {
    typealias Job = @Sendable () async -> Void

    private enum Slot {
        /// Counted from before the task exists, so `run()` cannot return while one is being started.
        case starting
        case started(Task<Void, Never>)
    }

    private struct State {
        /// A task that ended before its handle was stored (one that ran to its end at once) has no
        /// slot left by then, so its handle is not kept.
        var running: [Int: Slot] = [:]
        var nextID = 0
        var isFinished = false
        var idleWaiter: CheckedContinuation<Void, Never>?

        /// The waiter to wake when `run()` may return now.
        mutating func takeWaiterIfDone() -> CheckedContinuation<Void, Never>? {
            guard isFinished, running.isEmpty else { return nil }
            defer { idleWaiter = nil }
            return idleWaiter
        }
    }

    private let state = Locked(State())

    /// Starts `job`; `.onDaemonThread`, its first step runs on this thread before `start` returns.
    /// Returns `false` after ``finish()``, when nothing is started.
    func start(_ start: ResponderStart, _ job: @escaping Job) -> Bool {
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.running[state.nextID] = .starting
            return state.nextID
        }
        guard let id else { return false }
        let executor: any TaskExecutor = switch start {
        case .onDaemonThread: FirstStepInline()
        case .inPool: globalConcurrentExecutor
        }
        let task = Task(executorPreference: executor) {
            await job()
            self.ended(id)
        }
        let cancel = state.withLock { state -> Bool in
            guard state.running[id] != nil else { return false }
            state.running[id] = .started(task)
            return state.isFinished  // `finish()` came between the two locks: it could not cancel this one
        }
        if cancel { task.cancel() }
        return true
    }

    /// No job starts from now on, and the running ones are cancelled.
    func finish() {
        let running = state.withLock { state in
            state.isFinished = true
            return state.running.values.compactMap { slot -> Task<Void, Never>? in
                if case .started(let task) = slot { return task }
                return nil
            }
        }
        for task in running { task.cancel() }
        state.withLock { $0.takeWaiterIfDone() }?.resume()
    }

    /// Returns once ``finish()`` was called and every started job has ended.
    func run() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard !state.isFinished || !state.running.isEmpty else { return true }
                state.idleWaiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func ended(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.running.removeValue(forKey: id)
            return state.takeWaiterIfDone()
        }
        waiter?.resume()
    }
}
