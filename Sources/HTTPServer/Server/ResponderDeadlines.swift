import Locking

/// The request time limit of every running responder, kept by one watcher instead of a timer per
/// request.
///
/// A sleeping child task per request (the earlier design) cost about a quarter of the server's CPU
/// under load: a task group, a child and a dispatch timer armed and cancelled for every request, for
/// responses that take microseconds. Every responder gets the same limit, so deadlines arrive in the
/// order responders start; the watcher needs only the oldest one still running. It sleeps until that
/// deadline, or for one whole limit when none is running (a responder that starts meanwhile has a
/// later deadline), so it wakes about once per limit plus once per responder that actually overruns.
///
/// On expiry the watcher answers the client (through `expired`) and cancels the responder's task. The
/// task is cancelled through its `UnsafeCurrentTask`, which is valid only while the task runs: it is
/// used under the lock, and a responder leaves the table under the same lock before its task ends.
final class ResponderDeadlines: Sendable {
    /// One responder's place in the table; given back to ``finished(_:)``.
    struct Ticket: Sendable {
        fileprivate let number: UInt64
    }

    private struct Running {
        let deadline: ContinuousClock.Instant
        let request: InFlightRequest
        let task: ResponderTask
    }

    /// The responder's task, to cancel it from the watcher.
    private struct ResponderTask: @unchecked Sendable {  // @unchecked: used only under the table's lock, while the task runs
        let task: UnsafeCurrentTask?
    }

    private struct Table: ~Copyable {
        /// Running responders by ticket number; numbers grow with start time, so with deadlines.
        var running: [UInt64: Running] = [:]
        /// The next ticket number.
        var next: UInt64 = 0
        /// No responder below this number is still running.
        var oldest: UInt64 = 0
    }

    let limit: Duration
    private let clock = ContinuousClock()
    private let table = Locked(Table())

    init(limit: Duration) {
        self.limit = limit
    }

    /// The calling task starts responding to `request`; its deadline is one limit from now.
    func started(_ request: InFlightRequest) -> Ticket {
        let deadline = clock.now.advanced(by: limit)
        let task = withUnsafeCurrentTask { ResponderTask(task: $0) }
        return table.withLock { table in
            let number = table.next
            table.next += 1
            table.running[number] = Running(deadline: deadline, request: request, task: task)
            return Ticket(number: number)
        }
    }

    /// The responder's task is done with the request (answered in time or not); it must call this
    /// before it ends.
    func finished(_ ticket: Ticket) {
        table.withLock { _ = $0.running.removeValue(forKey: ticket.number) }
    }

    /// Answers every responder that passes its deadline (through `expired`, outside the lock) and
    /// cancels its task; returns when the calling task is cancelled.
    func watch(expired: (InFlightRequest) -> Void) async {
        while !Task.isCancelled {
            let (overdue, wake) = takeOverdue(now: clock.now)
            for request in overdue { expired(request) }
            try? await Task.sleep(until: wake, clock: clock)
        }
    }

    /// Removes the responders past their deadline at `now`, cancelling their tasks; returns them and
    /// when to look again.
    private func takeOverdue(now: ContinuousClock.Instant) -> (overdue: [InFlightRequest], wake: ContinuousClock.Instant) {
        table.withLock { table in
            var overdue: [InFlightRequest] = []
            while table.oldest < table.next {
                guard let running = table.running[table.oldest] else {
                    table.oldest += 1
                    continue
                }
                guard running.deadline <= now else { return (overdue, running.deadline) }
                running.task.task?.cancel()
                overdue.append(running.request)
                table.running[table.oldest] = nil
                table.oldest += 1
            }
            return (overdue, now.advanced(by: limit))
        }
    }
}
