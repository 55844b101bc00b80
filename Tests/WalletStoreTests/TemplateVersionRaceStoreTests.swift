import Foundation
import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// A pass is built from its template's current version outside any transaction; a version
/// published meanwhile must not let it be stored at the old one after the roll-out went by. The store
/// refuses such a pass (an issue, a bulk batch), and on PostgreSQL publishing a version and storing a
/// pass are ordered by the tags' lock, held here from a connection of the test's own.
@Suite(.timeLimit(.minutes(2))) struct TemplateVersionRaceStoreTests {
    static let files = [(path: "pass.json", bytes: Data("{}".utf8))]

    static func publish(_ digest: String, in store: WalletStore) async throws -> TemplateSave {
        try await store.saveTemplateVersion(NewTemplateVersion(name: "event", files: files, digest: digest, origin: WriteOrigin(actor: "test", source: .api)))
    }

    static func pass(_ serial: String, version: Int64) -> NewPass {
        var pass = Fixture.pass(serial)
        pass.templateVersion = version
        return pass
    }

    @Test("an issue or a bulk batch built from a version no longer current writes nothing", arguments: StoreEngine.selected)
    func aPassOfASupersededVersionIsNotStored(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            _ = try await Self.publish("v1", in: store)
            _ = try await store.createPass(Self.pass("before", version: 1))
            _ = try await Self.publish("v2", in: store)

            let error = await #expect(throws: WalletStoreError.self) { try await store.createPass(Self.pass("late", version: 1)) }
            guard case .templateVersionSuperseded("event", version: 1)? = error else {
                Issue.record("expected templateVersionSuperseded, got \(String(describing: error))"); return
            }
            #expect(try await store.pass(Fixture.key("late")) == nil)
            #expect(try await store.auditEntries(AuditFilter(action: "pass.issue")).count == 1, "its audit row went with it")
            #expect(try await store.createPass(Self.pass("late", version: 2)).templateVersion == 2)

            try await store.createBulkJob(id: "job_1", template: "event", format: "jsonl", validation: .each, origin: .api)
            try await store.addBulkRecords(job: "job_1", (1...3).map { BulkRecordDraft(line: $0, serialNumber: "B-\($0)", record: "{}", errors: nil) })
            _ = try await store.openBulkJob("job_1", records: 3, unreadable: 0)
            let claims = try await store.claimBulkRecords(instance: "a", limit: 10, lease: .seconds(60))
            func settlements(_ version: Int64) -> [BulkSettlement] { claims.map { BulkSettlement($0, .issue(Self.pass($0.serialNumber, version: version))) } }
            await #expect(throws: WalletStoreError.self) { try await store.settleBulkRecords(settlements(1), instance: "a") }
            #expect(try await store.bulkJob("job_1")?.issued == 0, "the batch wrote nothing")
            #expect(try await store.passes(template: "event").count == 2)
            let job = try await store.settleBulkRecords(settlements(2), instance: "a")
            #expect(job.issued == 3 && job.state == .completed, "the same claims, rebuilt, settle")
        }
    }

    @Test("publishing a version waits for an issue that holds the tags' lock; the roll-out then sees its pass", .enabled(if: TestEngine.postgresEnabled))
    func aVersionIsPublishedAfterTheIssueAheadOfIt() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            try await configuration.withStore(clock: TestClock()) { store in
                _ = try await Self.publish("v1", in: store)
                let observer = try await configuration.open(poolSize: 2)
                try await withCleanup {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                            group.addTask { _ = try await store.createPass(Self.pass("issued", version: 1)) }
                            try await AdvisoryLocks.waitForWaiters(1, written: ["events"], untouched: ["passes", "template_versions"], on: observer)
                            group.addTask { _ = try await Self.publish("v2", in: store) }
                            // The version waits with its files written: it is not current yet.
                            try await AdvisoryLocks.waitForWaiters(1, written: ["template_versions"], untouched: ["passes"], on: observer)
                        }
                        try await group.waitForAll()
                    }
                } cleanup: {
                    await observer.close()
                }
                #expect(try await store.pass(Fixture.key("issued"))?.templateVersion == 1, "stored first, at the version it was built from")
                #expect(try await store.templatesBehind().map(\.name) == ["event"], "and behind the new one, for the roll-out to move")
            }
        }
    }

    @Test("an issue that reaches the tags' lock after a version waiting for it is refused, writing nothing", .enabled(if: TestEngine.postgresEnabled))
    func anIssueBehindAPublishedVersionIsRefused() async throws {
        try await TestEngine.postgres.withLocation { configuration in
            try await configuration.withStore(clock: TestClock()) { store in
                _ = try await Self.publish("v1", in: store)
                let observer = try await configuration.open(poolSize: 2)
                let issued = try await withCleanup {
                    try await withThrowingTaskGroup(of: Result<StoredPass, WalletStoreError>?.self) { group in
                        try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                            group.addTask { _ = try await Self.publish("v2", in: store); return nil }
                            try await AdvisoryLocks.waitForWaiters(1, written: ["template_versions"], untouched: ["passes"], on: observer)
                            group.addTask {
                                do { return .success(try await store.createPass(Self.pass("issued", version: 1))) } catch let error as WalletStoreError { return .failure(error) }
                            }
                            // Both wait, the version first: PostgreSQL grants the lock in that order.
                            try await AdvisoryLocks.waitForWaiters(1, written: ["events"], untouched: ["passes", "template_versions"], on: observer)
                        }
                        return try await group.reduce(into: [Result<StoredPass, WalletStoreError>]()) { if let result = $1 { $0.append(result) } }
                    }
                } cleanup: {
                    await observer.close()
                }
                guard case .failure(.templateVersionSuperseded("event", version: 1))? = issued.first else {
                    Issue.record("expected the issue refused as superseded, got \(issued)"); return
                }
                #expect(try await store.pass(Fixture.key("issued")) == nil)
                #expect(try await store.currentTemplateVersion("event") == 2)
            }
        }
    }
}
