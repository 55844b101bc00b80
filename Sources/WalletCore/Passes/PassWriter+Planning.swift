import Foundation
import PassModel
import WalletStore

/// Planning a page of passes on every core. A plan renders and validates the pass (once or twice),
/// milliseconds of CPU each and independent of every other pass's, so a template-wide change or a
/// roll-out planned one pass at a time left all cores but one idle while a million passes moved.
extension PassWriter {
    /// Tasks planning at once: one per core, as rendering does not wait on anything. Read once:
    /// `activeProcessorCount` reads the cgroup's CPU files on Linux, and asked for each pass planned
    /// it was 1 % of the server's CPU in a roll-out wave (fleet benchmark, BENCHMARKS.md).
    static let planningWidth = ProcessInfo.processInfo.activeProcessorCount

    /// Tasks planning a page while another page is written (a roll-out) when the planning keeps
    /// ahead of the writes: one core fewer, at least one. The writes are one transaction at a time, a
    /// chain of the connection's thread and, when it shares the machine, PostgreSQL's backend, and
    /// then that chain is the roll-out's pace: planning on every core preempted it (a roll-out of
    /// 300,000 passes on two cores 4–11 % shorter with one planning task; BENCHMARKS.md).
    static let planningBesideWrites = max(1, planningWidth - 1)

    /// The width for a roll-out's next page, from how long the last page took to plan and the page
    /// beside it to write: planning that fell behind the writes (the cores busy with other work, as
    /// in a wave of devices fetching) gets every core back; planning ahead of them leaves one.
    static func planningWidth(planning: Duration, writing: Duration) -> Int {
        planning > writing ? planningWidth : planningBesideWrites
    }

    /// The plans of `passes`, in their order, from `planOne` run on up to `width` tasks.
    /// Every pass of the page is planned; then the error of the first pass (in page order) that
    /// failed is thrown, so a page with several invalid passes names the same one every time.
    func plans(
        _ passes: [StoredPass], holds: [PassKey: PassHold], width: Int = planningWidth,
        _ planOne: @escaping @Sendable (StoredPass, PassHold?) async throws -> Plan
    ) async throws -> [Plan] {
        try await planOutcomes(passes, holds: holds, width: width, planOne).map { try $0.get() }
    }

    /// Each pass's plan or the error planning it threw, in the order of `passes`, from `planOne`
    /// run on up to `width` tasks.
    func planOutcomes(
        _ passes: [StoredPass], holds: [PassKey: PassHold], width: Int = planningWidth,
        _ planOne: @escaping @Sendable (StoredPass, PassHold?) async throws -> Plan
    ) async -> [Result<Plan, any Error>] {
        await withTaskGroup(of: (Int, Result<Plan, any Error>).self) { group in
            var outcomes = [Result<Plan, any Error>?](repeating: nil, count: passes.count)
            for (index, pass) in passes.enumerated() {
                if index >= width, let (done, outcome) = await group.next() { outcomes[done] = outcome }
                let hold = holds[pass.key]
                group.addTask {
                    // The plan is bound before the tuple is built: Swift 6.3.1 at -O paired the plan
                    // with another task's index when the tuple held `try await` inside `do`/`catch`
                    // (a roll-out's release build trapped on it; debug builds were right).
                    do {
                        let plan = try await planOne(pass, hold)
                        return (index, .success(plan))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for await (done, outcome) in group { outcomes[done] = outcome }
            return outcomes.compactMap { $0 }
        }
    }
}
