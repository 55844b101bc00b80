import Dispatch

/// A serial executor on a private dispatch queue, so a connection actor's blocking C calls run on a
/// thread of their own instead of occupying the Swift cooperative pool (two threads on a 2-core box).
///
/// It is a task executor too: a transaction runs its whole body with this executor preferred, so the
/// body's code and each statement's call into the connection run on the one queue, one after the
/// other, instead of hopping between the cooperative pool and the queue (two thread switches) per
/// statement. Every job it runs is isolated to the connection: the queue is serial, so whatever runs
/// on it excludes the connection's other work.
final class DispatchQueueExecutor: SerialExecutor, TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        queue.async {
            job.runSynchronously(isolatedTo: serial, taskExecutor: task)
        }
    }
}
