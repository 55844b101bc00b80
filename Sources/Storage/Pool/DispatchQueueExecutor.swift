import Dispatch

/// A serial executor on a private dispatch queue, so a connection actor's blocking C calls run on a
/// thread of their own instead of occupying the Swift cooperative pool (two threads on a 2-core box).
final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async {
            job.runSynchronously(on: executor)
        }
    }
}
