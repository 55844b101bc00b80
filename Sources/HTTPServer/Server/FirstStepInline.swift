import Locking
import Synchronization

/// The task executor a responder's task prefers: its first job runs at once on the thread that
/// starts the task (a libmicrohttpd daemon thread), every later one on the global concurrent pool.
///
/// A responder that never really suspends (a SQLite read, a cached archive) therefore runs to its end
/// on the daemon thread, which queues the answer in the same access-handler call, as a bare
/// libmicrohttpd server does, instead of suspending the connection, waking a pool thread and resuming
/// the connection again (about a tenth of a list-serials request's server CPU, measured). A responder
/// that does wait (PostgreSQL, a write) is continued on the pool, so the daemon thread is held only
/// until the first real suspension; routes that compute for long first start in the pool instead
/// (``ResponderStart/inPool``).
final class FirstStepInline: TaskExecutor, Sendable {
    private let first = Atomic<Bool>(true)

    func enqueue(_ job: consuming ExecutorJob) {
        if first.exchange(false, ordering: .acquiringAndReleasing) {
            // The job runs until the task first suspends: a daemon thread may block on a short read meanwhile.
            BlockingPermit.grant()
            job.runSynchronously(on: asUnownedTaskExecutor())
            BlockingPermit.revoke()
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
