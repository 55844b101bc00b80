import PassCompiler

/// One `batch` job: it signs its passes one after the other on its own task, while another task
/// packages and writes the last one (assembling the archive was about a sixth of the signing
/// task's time; off it, one job to memory went from 0.56–0.66 to 0.80–0.83 of the ceiling). With fewer jobs than cores, a third task prepares the next pass (render,
/// validate, encode `pass.json`) meanwhile, so the job's signing, the longest stage (about two
/// thirds of a pass's time to memory), waits for nothing: one job went from 0.60–0.62 to 0.71–0.76
/// of the signing ceiling to memory (BENCHMARKS.md). With a job per core the cores are busy already
/// and the extra task only cost switches (two jobs 4–5 % slower), so there a job prepares each pass
/// itself, just before signing it.
///
/// One pass is in each stage at most, so a job holds at most three passes, and passes are written
/// (and tallied) in the order they were read.
struct BatchJob: Sendable {
    let compiler: PassCompiler
    let writer: PassFileWriter
    /// Whether the next pass is prepared on a task of its own (there are spare cores for it).
    let preparesAhead: Bool
    /// The next record and how many input bytes were read by then; `nil` at the end of the input.
    let next: @Sendable () -> (RecordReader.Record, consumed: Int)?
    /// Counts a written (or failed) pass.
    let tally: @Sendable (BatchOutcome, _ consumed: Int) -> Void

    private enum Step: Sendable {
        case prepared(BatchOutcome.Prepared, consumed: Int)
        case written(BatchOutcome, consumed: Int)
    }

    /// What the child stages hold: a pass being prepared or prepared and not yet taken, and a write.
    private struct Stages {
        var preparing = false
        var ready: (BatchOutcome.Prepared, consumed: Int)?
        var writing = false
    }

    func run() async {
        await withTaskGroup(of: Step.self) { group in
            var stages = Stages()
            if preparesAhead { prepareNext(&stages, &group) }
            while let (prepared, consumed) = await nextPrepared(&stages, &group) {
                let built = BatchOutcome.sign(prepared, compiler: compiler)
                while stages.writing, let step = await group.next() {
                    settle(step, &stages)
                }
                group.addTask { [compiler, writer] in .written(BatchOutcome.write(built, compiler: compiler, writer: writer), consumed: consumed) }
                stages.writing = true
            }
            while let step = await group.next() { settle(step, &stages) }
        }
    }

    /// The next pass to sign, prepared ahead (and the one after it started) or, without spare
    /// cores, here and now; `nil` at the end of the input.
    private func nextPrepared(_ stages: inout Stages, _ group: inout TaskGroup<Step>) async -> (BatchOutcome.Prepared, consumed: Int)? {
        guard preparesAhead else {
            return next().map { record, consumed in (BatchOutcome.prepare(record, compiler: compiler), consumed) }
        }
        while stages.ready == nil, stages.preparing, let step = await group.next() {
            settle(step, &stages)
        }
        guard let ready = stages.ready else { return nil }
        stages.ready = nil
        prepareNext(&stages, &group)
        return ready
    }

    private func prepareNext(_ stages: inout Stages, _ group: inout TaskGroup<Step>) {
        guard let (record, consumed) = next() else { return }
        group.addTask { [compiler] in .prepared(BatchOutcome.prepare(record, compiler: compiler), consumed: consumed) }
        stages.preparing = true
    }

    private func settle(_ step: Step, _ stages: inout Stages) {
        switch step {
        case .prepared(let prepared, let consumed):
            stages.preparing = false
            stages.ready = (prepared, consumed)
        case .written(let outcome, let consumed):
            stages.writing = false
            tally(outcome, consumed)
        }
    }
}
