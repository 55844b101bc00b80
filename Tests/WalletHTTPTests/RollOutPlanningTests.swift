import Foundation
import Locking
import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletCore
@testable import WalletStore

/// A roll-out keeps the cores and the database busy at once: a page's passes are planned on several
/// tasks, and the next page is planned while one is being written (on one core fewer, left to the
/// writes, unless planning falls behind them). Each case waits for what only the
/// concurrent writer does, so done one pass or one page at a time it fails (at its own timeout).
@Suite(.serialized, .timeLimit(.minutes(5))) struct RollOutPlanningTests {
    /// How long a hook waits for the overlap it looks for before giving up and letting the roll-out go on.
    static let patience = Duration.seconds(30)

    @Test("a template-wide change plans a page's passes on several tasks at once", arguments: Engine.selected)
    func passesOfAPagePlanTogether(engine: Engine) async throws {
        let wanted = min(2, PassWriter.planningWidth)
        let active = Locked(0), mostActive = Locked(0), watching = Locked(false)
        try await PassServiceTests().withPassService(engine: engine, afterValidation: { _ in
            { _ in
                guard watching.withLock({ $0 }) else { return }
                let now = active.withLock { $0 += 1; return $0 }
                mostActive.withLock { $0 = max($0, now) }
                // Stay inside until another plan is inside too (or give up): one at a time never gets there.
                _ = try? await eventually("\(wanted) plans at once", timeout: Self.patience) { mostActive.withLock { $0 } >= wanted ? true : nil }
                active.withLock { $0 -= 1 }
            }
        }) { service, store in
            for index in 0..<4 { _ = try await service.issue(try PassServiceTests.issue("W\(index)"), origin: .api) }
            watching.withLock { $0 = true }
            let result = try await service.writer.write(template: "loyalty", PassEdit(data: .object(["points": .number(42)])), origin: .api)
            #expect(result.changed == 4)
            #expect((wanted...PassWriter.planningWidth).contains(mostActive.withLock { $0 }))
            for index in 0..<4 {
                let pass = try #require(try await store.pass(PassKey(passTypeIdentifier: PushTypes.loyalty, serialNumber: "W\(index)")))
                #expect(try PassServiceTests.member("points", of: pass) == .number(42))
            }
        }
    }

    @Test("a roll-out plans its first page on every core and the next beside its write on one core fewer", arguments: Engine.selected)
    func rollOutLeavesACoreToItsWrites(engine: Engine) async throws {
        #expect(PassWriter.planningBesideWrites == max(1, PassWriter.planningWidth - 1))
        let pageSize = PassWriter.batchSize
        // Per page: plans inside the hook now, and the most at once.
        let active = Locked([0, 0]), mostActive = Locked([0, 0]), watching = Locked(false)
        let wanted = [min(2, PassWriter.planningWidth), min(2, PassWriter.planningBesideWrites)]
        try await PassServiceTests().withPassService(engine: engine, afterValidation: { _ in
            { key in
                guard watching.withLock({ $0 }), let number = Int(key.serialNumber.dropFirst()) else { return }
                let page = number < pageSize ? 0 : 1
                let now = active.withLock { $0[page] += 1; return $0[page] }
                mostActive.withLock { $0[page] = max($0[page], now) }
                _ = try? await eventually("\(wanted[page]) plans at once", timeout: Self.patience) { mostActive.withLock { $0[page] } >= wanted[page] ? true : nil }
                // Long enough for a planner wider than allowed to put another plan of the second page in here.
                if page == 1 { try? await Task.sleep(for: .milliseconds(20)) }
                active.withLock { $0[page] -= 1 }
            }
        }) { service, store in
            // A page and 12 passes more: the second page is planned while the first is written.
            for index in 0..<(pageSize + 12) { _ = try await service.issue(try PassServiceTests.issue(String(format: "R%04d", index)), origin: .api) }
            _ = try await WritePipelineTests.publishAndRollOut(service, editing: { $0.replacingOccurrences(of: #""label": "Points""#, with: #""label": "Stars""#) }, rollOut: false)
            watching.withLock { $0 = true }
            let moved = try await service.writer.rollOut(template: "loyalty", to: 2)
            #expect(moved.advanced == pageSize + 12)
            let most = mostActive.withLock { $0 }
            #expect((wanted[0]...PassWriter.planningWidth).contains(most[0]), "the first page on every core")
            #expect((wanted[1]...PassWriter.planningBesideWrites).contains(most[1]), "the second page on one core fewer (at least one)")
            let last = try #require(try await store.pass(PassKey(passTypeIdentifier: PushTypes.loyalty, serialNumber: String(format: "R%04d", pageSize + 11))))
            #expect(last.templateVersion == 2)
        }
    }

    @Test("a roll-out's next page gets every core back when planning falls behind the writes")
    func planningBehindTheWritesWidens() {
        #expect(PassWriter.planningWidth(planning: .milliseconds(30), writing: .milliseconds(20)) == PassWriter.planningWidth)
        #expect(PassWriter.planningWidth(planning: .milliseconds(10), writing: .milliseconds(20)) == PassWriter.planningBesideWrites)
    }

    @Test("a roll-out writes two pages at once on PostgreSQL, each waiting only for the tags' lock, and no third", .enabled(if: Engine.postgresEnabled))
    func twoPagesWriteAtOnce() async throws {
        #expect(PassWriter.rollOutWritesAtOnce == 2)
        let pageSize = PassWriter.batchSize
        // The third page's passes: once all of them are planned, the roll-out waits for a write to end.
        let thirdPage = String(format: "Q%04d", 2 * pageSize)
        let thirdPlanned = Locked(0), watching = Locked(false)
        try await PassServiceTests().withPassService(engine: .postgres, afterValidation: { _ in
            { key in
                if watching.withLock({ $0 }), key.serialNumber >= thirdPage { thirdPlanned.withLock { $0 += 1 } }
            }
        }) { service, store, configuration in
            for index in 0..<(2 * pageSize + 12) { _ = try await service.issue(try PassServiceTests.issue(String(format: "Q%04d", index)), origin: .api) }
            _ = try await WritePipelineTests.publishAndRollOut(service, editing: { $0.replacingOccurrences(of: #""label": "Points""#, with: #""label": "Stars""#) }, rollOut: false)
            let observer = try await configuration.open(poolSize: 2)
            try await withCleanup {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                        watching.withLock { $0 = true }
                        group.addTask {
                            let moved = try await service.writer.rollOut(template: "loyalty", to: 2)
                            #expect(moved.advanced == 2 * pageSize + 12 && moved.batches == 3)
                        }
                        // The first two pages' writes wait for the lock, their events written; …
                        try await AdvisoryLocks.waitForWaiters(2, written: ["events", "audit_log"], untouched: [], waitingIn: "nextval('update_tag_sequence')", on: observer)
                        // … the third page is planned meanwhile, and its write waits for one of theirs.
                        try await eventually("the third page planned", timeout: Self.patience) { thirdPlanned.withLock { $0 } == 12 }
                        // Time for a third write, had it begun, to write its events and reach the lock too.
                        try await Task.sleep(for: .milliseconds(200))
                        let waiting = try await AdvisoryLocks.waiters(written: ["events"], untouched: [], on: observer)
                        #expect(waiting == 2, "a third page's write began")
                    }
                    try await group.waitForAll()
                }
            } cleanup: {
                await observer.close()
            }
            for index in [0, pageSize, 2 * pageSize + 11] {
                let pass = try #require(try await store.pass(PassKey(passTypeIdentifier: PushTypes.loyalty, serialNumber: String(format: "Q%04d", index))))
                #expect(pass.templateVersion == 2)
            }
        }
    }

    @Test("a roll-out plans its next page while the database still writes the one before", arguments: Engine.selected)
    func nextPagePlansWhileOneWrites(engine: Engine) async throws {
        let pageSize = PassWriter.batchSize
        let lastSerial = String(format: "P%04d", pageSize)
        let reachedNextPage = Locked(false), watching = Locked(false)
        try await PassServiceTests().withPassService(engine: engine, afterValidation: { _ in
            { key in
                if watching.withLock({ $0 }), key.serialNumber == lastSerial { reachedNextPage.withLock { $0 = true } }
            }
        }) { service, store in
            // One page and one pass more: the second page is that pass alone.
            for index in 0...pageSize { _ = try await service.issue(try PassServiceTests.issue(String(format: "P%04d", index)), origin: .api) }
            _ = try await WritePipelineTests.publishAndRollOut(service, editing: { $0.replacingOccurrences(of: #""label": "Points""#, with: #""label": "Stars""#) }, rollOut: false)
            let first = PassKey(passTypeIdentifier: PushTypes.loyalty, serialNumber: "P0000")
            let holding = Gate(), release = Gate()
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Another writer holds the first pass (PostgreSQL: its row; SQLite: the one writer),
                // so the first page's write waits until this test lets it go.
                group.addTask {
                    try await store.database.transaction { transaction in
                        try await transaction.execute(SQL(
                            "UPDATE passes SET updated_at = updated_at WHERE pass_type_identifier = ? AND serial_number = ?",
                            .text(first.passTypeIdentifier), .text(first.serialNumber)))
                        holding.open()
                        await release.wait()
                    }
                }
                await holding.wait()
                watching.withLock { $0 = true }
                group.addTask {
                    let moved = try await service.writer.rollOut(template: "loyalty", to: 2)
                    #expect(moved.advanced == pageSize + 1)
                    #expect(moved.planning > .zero && moved.writing > .zero)
                }
                let planned = try? await eventually("the next page is planned", timeout: Self.patience) { reachedNextPage.withLock { $0 } ? true : nil }
                #expect(planned == true, "the second page was planned while the first still waited on the database")
                #expect(try await store.pass(first)?.templateVersion == 1, "the first page is not written yet")
                release.open()
                try await group.waitForAll()
            }
            for index in [0, pageSize - 1, pageSize] {
                let pass = try #require(try await store.pass(PassKey(passTypeIdentifier: PushTypes.loyalty, serialNumber: String(format: "P%04d", index))))
                #expect(pass.templateVersion == 2)
            }
        }
    }
}
