import Synchronization

/// The task executor a responder's task prefers: its first job runs at once on the thread that
/// starts the task (a libmicrohttpd daemon thread), every later one on the global concurrent pool.
///
/// A responder that never really suspends (a SQLite read, a cached archive) therefore runs to its end
/// on the daemon thread, which queues the answer in the same access-handler call, as a bare
/// libmicrohttpd server does. Suspending the connection, waking a pool thread and resuming the
/// connection again (four thread switches on a 2-core machine) was most of such a request's cost. A
/// responder that does wait (PostgreSQL, a write) is continued on the pool as before, so the daemon
/// thread is held only until the first real suspension.
final class FirstStepInline: TaskExecutor, Sendable {
    private let first = Atomic<Bool>(true)

    func enqueue(_ job: consuming ExecutorJob) {
        if first.exchange(false, ordering: .acquiringAndReleasing) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
