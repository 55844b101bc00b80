import PassModel
import Foundation
import Locking
import PassCompiler
import WalletStore

/// The writers' entry points into the pipeline: one pass, every pass of a template, the held changes
/// that fell due, and a template version's roll-out.
extension PassWriter {
    /// What a write of one pass came to.
    typealias PassUpdate = PassService.PassUpdate

    /// Applies `edit` to one pass. `check` runs on the pass as read before every attempt (a
    /// personalization refuses a pass that has one), and may throw to stop without writing.
    func write(
        _ key: PassKey, _ edit: PassEdit, origin: WriteOrigin, check: (@Sendable (StoredPass) throws -> Void)? = nil
    ) async throws -> PassUpdate {
        guard let pass = try await store.pass(key) else { throw WalletStoreError.passNotFound(key) }
        if try await store.erasedAt(key) != nil { throw WalletStoreError.passErased(key) }
        let replan: @Sendable (StoredPass, PassHold?) async throws -> Plan = { pass, hold in
            try check?(pass)
            return try await plan(edit, for: pass, hold: hold, origin: origin)
        }
        let hold = try await store.hold(key)
        let first = try await replan(pass, hold)
        guard first.request != nil else { return PassUpdate(pass: pass, changed: false, pushesQueued: 0, heldUntil: first.heldUntil) }
        let landed = try await commit([first], replan: replan)
        guard let plan = landed.plans[key] else { throw WalletStoreError.passNotFound(key) }
        if let written = landed.written.first {
            return PassUpdate(pass: written, changed: true, pushesQueued: landed.pushesQueued, heldUntil: plan.heldUntil)
        }
        let current = landed.unchanged.first ?? pass
        return PassUpdate(pass: current, changed: plan.editHeld, pushesQueued: 0, heldUntil: plan.heldUntil)
    }

    /// Applies one edit to every pass of a template, all or nothing: every pass's plan is computed
    /// (and so validated) before the first is written, so one invalid pass fails the request with
    /// nothing written. The plans are then written in batches; each holder's notification follows
    /// the policy in their own zone, so a notifying change at night is held per holder.
    func write(template: String, _ edit: PassEdit, origin: WriteOrigin) async throws -> TemplateUpdateResult {
        var plans: [Plan] = []
        var matched = 0
        var after: PassKey?
        while true {
            let page = try await store.passes(template: template, after: after, limit: Self.batchSize)
            matched += page.count
            let holds = try await store.holds(page.map(\.key))
            plans += try await self.plans(page, holds: holds) { pass, hold in try await plan(edit, for: pass, hold: hold, origin: origin) }
                .filter { $0.request != nil }
            guard page.count == Self.batchSize, let last = page.last else { break }
            after = last.key
        }
        let landed = try await commit(plans) { pass, hold in try await plan(edit, for: pass, hold: hold, origin: origin) }
        let changed = Set(landed.written.map(\.key)).union(landed.plans.filter { $0.value.editHeld }.keys)
        return TemplateUpdateResult(matched: matched, changed: changed.count, held: landed.held, pushesQueued: landed.pushesQueued)
    }

    /// Writes the held changes that are due, in batches; returns how many holds were released and
    /// the holds that could not be planned (left for the next round).
    func releaseDue() async throws -> (released: Int, failures: [(PassKey, any Error)]) {
        var released = 0
        var failures: [(PassKey, any Error)] = []
        while true {
            let due = try await store.dueHolds(limit: Self.batchSize)
            guard !due.isEmpty else { return (released, failures) }
            let passes = try await store.passes(due.map(\.key))
            let holds = Dictionary(due.map { ($0.key, $0) }) { first, _ in first }
            let present = due.compactMap { passes[$0.key] }
            var plans: [Plan] = []
            let outcomes = await planOutcomes(present, holds: holds) { pass, hold in
                guard let hold else { return Plan(request: nil, heldUntil: nil) }
                return try await releasePlan(for: pass, hold: hold)
            }
            for (pass, outcome) in zip(present, outcomes) {
                switch outcome {
                case .success(let plan): plans.append(plan)
                // Its template version cannot be loaded here now: the others go on, it waits.
                case .failure(let error): failures.append((pass.key, error))
                }
            }
            let landed = try await commit(plans) { pass, hold in
                guard let hold else { return Plan(request: nil, heldUntil: nil) }
                return try await releasePlan(for: pass, hold: hold)
            }
            released += landed.plans.count
            guard due.count == Self.batchSize, !landed.plans.isEmpty else { return (released, failures) }
        }
    }

    /// What a roll-out came to.
    struct RollOut: Sendable {
        /// Passes moved to the version now.
        var advanced = 0
        /// Passes whose move notifies their holder and waits in a hold.
        var held = 0
        /// Outbox rows queued or coalesced.
        var pushesQueued = 0
        /// Transactions written.
        var batches = 0
        /// The longest of them.
        var longestBatch = Duration.zero
        /// Time spent reading pages of passes and planning them (rendering, validating), page by page.
        var planning = Duration.zero
        /// Time spent writing the plans: the database's share of the roll-out, page by page. The
        /// next page is planned while pages are written, so the roll-out takes about the larger of
        /// the two; pages are written ``PassWriter/rollOutWritesAtOnce`` at a time, so this sum of
        /// their writes can exceed the roll-out's own time.
        var writing = Duration.zero
        /// Passes the new version cannot render: moved all the same (a fetch then says why), and
        /// named so that the roll-out's log does.
        var unrenderable: [PassKey] = []

        /// Counts a written page in.
        mutating func add(_ page: WrittenPage) {
            writing += page.took
            advanced += page.landed.written.count
            held += page.landed.held
            pushesQueued += page.landed.pushesQueued
            batches += page.landed.batches
            longestBatch = max(longestBatch, page.landed.longestBatch)
        }
    }

    /// Moves the template's passes that are behind `version` to it, one batch of ``batchSize`` per
    /// transaction, each pass through the pipeline, so that a pass whose new version shows its
    /// holder a notification is held like any notifying change. A pass the new version cannot
    /// render still moves (as a plain roll-out moves it): its fetch then says why.
    func rollOut(template: String, to version: Int64) async throws -> RollOut {
        let edit = PassEdit(templateVersion: version)
        let origin = WriteOrigin.system(PassUpdateRecord.template(version: version))
        // Written by the planning tasks, several at once.
        let unrenderable = Locked<[PassKey]>([])
        let replan: @Sendable (StoredPass, PassHold?) async throws -> Plan = { pass, hold in
            do {
                return try await plan(edit, for: pass, hold: hold, origin: origin)
            } catch is PassCompilerError {
                unrenderable.withLock { $0.append(pass.key) }
                let move = PassWriteRequest(
                    key: pass.key, expectedTag: pass.updateTag, expectedHold: hold?.edits, change: PassChange(templateVersion: version), origin: origin)
                return Plan(request: move, heldUntil: nil)
            }
        }
        let planPage: @Sendable (PassKey?, Int) async throws -> PlannedPage? = { after, width in
            let started = ContinuousClock.now
            let page = try await store.passesBehind(template, version: version, after: after, limit: Self.batchSize)
            guard let last = page.last else { return nil }
            let holds = try await store.holds(page.map(\.key))
            return PlannedPage(last: last.key, plans: try await plans(page, holds: holds, width: width, replan), took: ContinuousClock.now - started)
        }
        return try await withThrowingTaskGroup(of: WrittenPage.self) { writes in
            var total = RollOut()
            var writing = 0
            var lastWrite = Duration.zero
            // The first page is planned with nothing else to do.
            var next = try await planPage(nil, Self.planningWidth)
            while let page = next, !Task.isCancelled {
                total.planning += page.took
                if writing == Self.rollOutWritesAtOnce, let written = try await writes.next() {
                    writing -= 1
                    lastWrite = written.took
                    total.add(written)
                }
                // Pages hold other passes (keys after the last page's last), so their writes share no
                // row but the tags' lock, which each takes last (`WalletStore.writePasses`).
                writes.addTask {
                    let started = ContinuousClock.now
                    let landed = try await commit(page.plans, replan: replan)
                    return WrittenPage(landed: landed, took: ContinuousClock.now - started)
                }
                writing += 1
                // The next page is read and planned while this one is written: its passes are
                // others, the writes wait on the database and the plans on the cores.
                let width = lastWrite == .zero ? Self.planningBesideWrites : Self.planningWidth(planning: page.took, writing: lastWrite)
                next = try await planPage(page.last, width)
            }
            while let written = try await writes.next() { total.add(written) }
            total.unrenderable = unrenderable.withLock { Array(Set($0)).sorted { $0.description < $1.description } }
            return total
        }
    }

    /// Pages of a roll-out written at once. On PostgreSQL a page's write does its reads, its event
    /// log and its audit rows before it waits for the tags' lock, so a second page's write does
    /// those while the first holds the lock (a roll-out of 300,000 passes 13–19 % shorter, of a
    /// million 91.8 → 71.5 s; BENCHMARKS.md); on SQLite the two wait for its one writer in turn.
    /// A third mostly waits for the lock (a million passes 2.5 % sooner) while holding another of
    /// the pool's four connections, which the other writers need during a roll-out.
    static let rollOutWritesAtOnce = 2

    /// A page of a roll-out, written: what landed and how long its write took.
    struct WrittenPage: Sendable {
        var landed: Landed
        var took: Duration
    }

    /// A page of a roll-out, planned: where the next page starts, its plans, and how long reading
    /// and planning it took.
    struct PlannedPage: Sendable {
        var last: PassKey
        var plans: [Plan]
        var took: Duration
    }
}
