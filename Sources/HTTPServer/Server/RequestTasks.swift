/// The responder tasks of one server, as children of one task group, so that stopping the server can
/// await them and no request task outlives it.
///
/// Daemon threads cannot add to a task group (only the group's own task can), so they hand each job
/// over through a stream that the group's task drains; under load it takes a batch per wake-up.
final class RequestTasks: Sendable {
    typealias Job = @Sendable () async -> Void

    private let jobs: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation

    init() {
        (jobs, continuation) = AsyncStream.makeStream()
    }

    /// Runs `job` as a child of the group; `false` once `finish()` was called (the job is dropped).
    func submit(_ job: @escaping Job) -> Bool {
        if case .enqueued = continuation.yield(job) { return true }
        return false
    }

    /// No more jobs: `run()` cancels the ones still running and returns once they have ended.
    func finish() {
        continuation.finish()
    }

    /// The group: called once, by the server's lifecycle task, and returns after `finish()` once every
    /// job has ended.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await job in jobs {
                group.addTask(operation: job)
            }
            // Jobs end when the server closes: their clients were answered `503` already.
            group.cancelAll()
        }
    }
}
