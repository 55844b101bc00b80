import Foundation
import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// On PostgreSQL every pass write draws its update tag under one advisory lock held until it
/// commits, so tags commit in order. What a write does before that lock (its locked read, its event
/// log and audit rows: new rows only) two writes do at once; what needs the tag, the counters and the
/// pushes wait for it. Here the lock is held from a connection of the test's own
/// (``AdvisoryLocks``), and PostgreSQL's lock table and activity say where each write waits and
/// which tables it has written by then.
@Suite(.enabled(if: TestEngine.postgresEnabled), .timeLimit(.minutes(2))) struct TagLockStoreTests {
    @Test("two pass writes append their events and audit rows at once and wait only for the tags' lock")
    func writesOverlapUpToTheTagsLock() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            try await configuration.withStore(clock: TestClock()) { store in
                let passes = [try await store.createPass(Fixture.pass("t1")), try await store.createPass(Fixture.pass("t2"))]
                // One device holds both passes: both writes queue a push for its one outbox row.
                for pass in passes { _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa1", pass: pass.key) }
                let before = try #require(try await store.serialNumbers(
                    deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: nil)).lastUpdated
                let observer = try await configuration.open(poolSize: 2)
                let written = try await withCleanup {
                    try await withThrowingTaskGroup(of: StoredPass?.self) { group in
                        try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                            for pass in passes {
                                group.addTask {
                                    try await store.writePasses([PassWriteRequest(PassChange(data: #"{"seat":"moved"}"#), over: pass)]).written.first
                                }
                            }
                            // Both reach the lock with their events and audit rows written, waiting in the tag's
                            // draw, which what needs the tag follows. Both queue a push for the one outbox row: had
                            // either queued it before the lock, the other would wait for that row instead.
                            try await AdvisoryLocks.waitForWaiters(2, written: Self.beforeTheTag, untouched: [], waitingIn: Self.tagDraw, on: observer)
                        }
                        return try await group.reduce(into: [StoredPass]()) { if let pass = $1 { $0.append(pass) } }
                    }
                } cleanup: {
                    await observer.close()
                }
                #expect(written.count == 2)
                #expect(Set(written.map(\.updateTag)).count == 2 && written.allSatisfy { $0.updateTag > before }, "a tag each, after the last")
                let updated = try #require(try await store.serialNumbers(
                    deviceLibraryIdentifier: "device-1", passTypeIdentifier: Fixture.passType, updatedSince: before))
                #expect(updated.serialNumbers == ["t1", "t2"] && updated.lastUpdated == written.map(\.updateTag).max())
                // Two issued, two installed, two updated; read once every transaction older than them has ended.
                let events = try await EventLogStoreTests.all(store, expecting: 6).filter { $0.type == .passUpdated }
                #expect(events.compactMap(\.pass?.serialNumber).sorted() == ["t1", "t2"], "one event a write")
                #expect(try await store.auditEntries(AuditFilter(action: "pass.update")).count == 2)
                let outbox = try await store.database.query(SQL("SELECT COUNT(*) AS rows FROM push_outbox WHERE device_library_identifier = 'device-1'"))
                #expect(try outbox[0].int("rows") == 1, "the device's pushes coalesced")
                let counted = try await store.database.query(SQL("SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) AS updates FROM analytics_rollups WHERE metric = 'pass.updated'"))
                #expect(try counted[0].int("updates") == 2, "both writes counted")
            }
        }
    }

    @Test("issuing a pass, creating an order and changing one append their events and audit rows before the tags' lock")
    func issuesAndOrdersWaitOnlyForTheTag() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            try await configuration.withStore(clock: TestClock()) { store in
                let existing = OrderKey(orderTypeIdentifier: "order.com.example.shop", orderIdentifier: "o-1")
                let order = try await store.createOrder(
                    existing, template: "shop", templateVersion: 1, document: "{}", authenticationToken: "order-token-0123456789", lastModified: Date(), origin: .api)
                let before = try await store.createPass(Fixture.pass("first")).updateTag
                let observer = try await configuration.open(poolSize: 2)
                let tags = try await withCleanup {
                    try await withThrowingTaskGroup(of: Int64.self) { group in
                        try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                            group.addTask { try await store.createPass(Fixture.pass("issued")).updateTag }
                            group.addTask {
                                try await store.createOrder(
                                    OrderKey(orderTypeIdentifier: existing.orderTypeIdentifier, orderIdentifier: "o-2"), template: "shop", templateVersion: 1, document: "{}",
                                    authenticationToken: "order-token-0123456789", lastModified: Date(), origin: .api).updateTag
                            }
                            group.addTask {
                                let change = OrderChange(
                                    key: existing, expectedTag: order.updateTag, document: #"{"status":"shipped"}"#, lastModified: Date(),
                                    changes: ["status"], origin: .api)
                                guard case .written(let written, _) = try await store.writeOrder(change) else { throw FixtureError("the order change did not land") }
                                return written.updateTag
                            }
                            // All three reach the lock with their event and audit row written; no pass, counter or push yet.
                            try await AdvisoryLocks.waitForWaiters(3, written: Self.beforeTheTag, untouched: ["passes", "analytics_rollups", "push_outbox"], on: observer)
                        }
                        return try await group.reduce(into: [Int64]()) { $0.append($1) }
                    }
                } cleanup: {
                    await observer.close()
                }
                #expect(Set(tags).count == 3 && tags.allSatisfy { $0 > before }, "a tag each, after the last: \(tags)")
                let events = try await EventLogStoreTests.all(store, expecting: 5)
                let orderEvents: [String] = events.map(\.type.rawValue).filter { $0.hasPrefix("order.") }.sorted()
                #expect(orderEvents == ["order.created", "order.created", "order.updated"])
                #expect(try await store.auditEntries(AuditFilter(action: "pass.issue")).count == 2)
                #expect(try await store.auditEntries(AuditFilter(action: "order.update")).count == 1)
                let counted = try await store.database.query(SQL("SELECT CAST(COALESCE(SUM(count), 0) AS BIGINT) AS issued FROM analytics_rollups WHERE metric = 'pass.issued'"))
                #expect(try counted[0].int("issued") == 2, "both issues counted")
            }
        }
    }

    @Test("writers of passes, issues and registrations sharing devices and counters never deadlock", arguments: TestEngine.selected)
    func interleavedWritersNeverDeadlock(engine: TestEngine) async throws {
        try await engine.withStore { store in
            var issued: [StoredPass] = []
            for index in 0..<40 { issued.append(try await store.createPass(Fixture.pass(String(format: "d%02d", index)))) }
            let passes = issued
            // Three devices on every pass: every batch below queues pushes for the same outbox rows.
            for pass in passes {
                for device in 1...3 { _ = try await store.register(deviceLibraryIdentifier: "device-\(device)", pushToken: "aa\(device)", pass: pass.key) }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for round in 0..<5 {
                            // Batches in opposite key orders, overlapping devices and counters.
                            let mine = writer.isMultiple(of: 2) ? Array(passes[0..<20]) : Array(passes[20..<40].reversed())
                            for chunk in [Array(mine[0..<10]), Array(mine[10..<20])] {
                                try await Self.rewrite(chunk, in: store, to: "w\(writer)r\(round)")
                            }
                        }
                    }
                }
                group.addTask {
                    for index in 0..<10 {
                        let issued = try await store.createPass(Fixture.pass("n\(index)"))
                        _ = try await store.register(deviceLibraryIdentifier: "device-\(index % 3 + 1)", pushToken: "aa\(index % 3 + 1)", pass: issued.key)
                    }
                }
                try await group.waitForAll()
            }
            let outbox = try await store.database.query(SQL("SELECT COUNT(*) AS rows FROM push_outbox"))
            #expect(try outbox[0].int("rows") == 3, "one row a device and type")
        }
    }

    /// Writes `seat` into each of `passes` as it is now, retrying the conflicts (another writer's
    /// batch got there first) until every pass has it.
    private static func rewrite(_ passes: [StoredPass], in store: WalletStore, to seat: String) async throws {
        var pending = passes.map(\.key)
        while !pending.isEmpty {
            let current = try await store.passes(pending)
            let result = try await store.writePasses(pending.compactMap { current[$0] }.map { PassWriteRequest(PassChange(data: #"{"seat":"\#(seat)"}"#), over: $0) })
            pending = result.conflicts.map(\.key)
        }
    }

    /// What a pass write has written by the time it waits for the tags' lock
    /// (``AdvisoryLocks/waitForWaiters(_:written:untouched:waitingIn:pid:on:timeout:)``).
    static let beforeTheTag = ["events", "audit_log"]
    /// Text of the statement a pass write waits for the lock in: the tag's draw, sent with the
    /// statements that name the tag (the rows, their history, the counters, the pushes), which run
    /// only after it (``WalletStore/drawTagLater(_:)``).
    static let tagDraw = "nextval('update_tag_sequence')"
}
