import Foundation
import Locking
import PassModel
import PasswrightLogging
import Signing
import Storage
import PasswrightTesting
import Testing
@testable import WalletCore
@testable import WalletHTTP
@testable import WalletStore

/// The service layer over a real store on both engines: updates render outside any transaction,
/// write with a compare-and-swap and retry on conflict; the clock and token checks are its own.
@Suite(.timeLimit(.minutes(2))) struct PassServiceTests {
    @Test(arguments: Engine.selected)
    func aSlowRenderHoldsNoLockAndConcurrentChangesBothSurvive(engine: Engine) async throws {
        let rendering = Gate(), release = Gate()
        let renders = Locked<[String]>([])
        try await withPassService(engine: engine, afterValidation: { _ in
            { key in
                // The first render of pass A stops here, validated but not written, until released.
                let first = renders.withLock { renders in renders.append(key.serialNumber); return renders == ["A"] }
                if first {
                    rendering.open()
                    await release.wait()
                }
            }
        }) { service, store in
            let a = try await service.issue(try Self.issue("A"), origin: .api).key
            let b = try await service.issue(try Self.issue("B"), origin: .api).key
            let slow = Task { try await service.update(a, Self.data(["tier": .string("Diamond")]), origin: .api) }
            await rendering.wait()
            // While A renders: another pass is updated and registered, and A itself is changed.
            // With a transaction open over the render, SQLite's writer (or PostgreSQL's row lock on A)
            // would hold these until the test, which waits for them, released the render.
            #expect(try await service.update(b, Self.data(["points": .number(5)]), origin: .api).changed)
            #expect(try await service.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", for: a) == .created)
            let concurrent = try await service.update(a, Self.data(["points": .number(7)]), origin: .api)
            #expect(concurrent.changed && concurrent.pushesQueued == 1)
            release.open()
            let outcome = try await slow.value
            // A's first write was refused (stale tag); the merge was redone on the new row.
            #expect(renders.withLock { $0 } == ["A", "B", "A", "A"])
            #expect(outcome.changed && outcome.pass.updateTag > concurrent.pass.updateTag)
            let stored = try #require(try await store.pass(a))
            #expect(try Self.member("tier", of: stored) == .string("Diamond"))
            #expect(try Self.member("points", of: stored) == .number(7))
            #expect(try Self.member("points", of: try #require(try await store.pass(b))) == .number(5))
        }
    }

    @Test(arguments: Engine.selected)
    func anUpdateOvertakenEveryTimeGivesUpAfterTheWritersLimit(engine: Engine) async throws {
        let renders = Locked(0)
        try await withPassService(engine: engine, afterValidation: { store in
            { key in
                // Every render is overtaken: another writer changes the pass before it is written.
                let count = renders.withLock { $0 += 1; return $0 }
                guard let current = try? await store.pass(key), case .object(var record)? = try? PassService.value(current.data) else { return }
                record["points"] = .number(Double(count))
                _ = try? await store.writePass(key, expectedTag: current.updateTag, change: PassChange(data: PassService.text(.object(record))))
            }
        }) { service, store in
            let key = try await service.issue(try Self.issue("BUSY"), origin: .api).key
            let error = await #expect(throws: WalletStoreError.self) {
                try await service.update(key, Self.data(["tier": .string("Diamond")]), origin: .api)
            }
            guard case .updateConflict(key, attempts: PassWriter.defaultMaximumAttempts)? = error else {
                Issue.record("expected updateConflict after the writer's limit of attempts, got \(String(describing: error))"); return
            }
            #expect(renders.withLock { $0 } == PassWriter.defaultMaximumAttempts)
            // Nothing of the refused change landed; the other writer's last change did.
            let stored = try #require(try await store.pass(key))
            #expect(try Self.member("tier", of: stored) == .string("Gold"))
            #expect(try Self.member("points", of: stored) == .number(Double(PassWriter.defaultMaximumAttempts)))
        }
    }

    @Test(arguments: Engine.selected)
    func theServiceOwnsTheClockAndComparesTokens(engine: Engine) async throws {
        let clock = PinnedClock(milliseconds: 1_800_000_000_500)
        try await withPassService(engine: engine, clock: clock) { service, _ in
            #expect(service.now() == Date(timeIntervalSince1970: 1_800_000_000.5))
            let pass = try await service.issue(try Self.issue("T-1"), origin: .api)
            #expect(pass.lastModified == service.now(), "the store and the service read one clock")
            #expect(try await service.authorizedPass(pass.key, token: pass.authenticationToken) == pass)
            #expect(try await service.authorizedPass(pass.key, token: pass.authenticationToken + "x") == nil)
            #expect(try await service.authorizedPass(pass.key, token: nil) == nil)
            let missing = PassKey(passTypeIdentifier: pass.key.passTypeIdentifier, serialNumber: "missing")
            #expect(try await service.authorizedPass(missing, token: "\u{0}missing") == nil)
            #expect(try await service.pass(missing) == nil)
            #expect(try await service.queuePushes(for: missing, origin: .api) == nil)
            #expect(try await service.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", for: pass.key) == .created)
            #expect(try await service.registrationCount(for: pass.key) == 1)
            #expect(try await service.queuePushes(for: pass.key, origin: .api) == 1)
            #expect(try await service.outboxStats().queued == 1)
            let serials = try await service.updatedSerials(deviceLibraryIdentifier: "device-1", passTypeIdentifier: pass.key.passTypeIdentifier, since: nil)
            #expect(serials?.serialNumbers == ["T-1"])
            try await service.appendDeviceLogs(["one", "two"])
            #expect(try await service.recentDeviceLogs(limit: 10).map(\.message) == ["two", "one"])
            #expect(try await service.recentDeviceLogs(limit: 10).first?.receivedAt == service.now())
            #expect(try await service.unregister(deviceLibraryIdentifier: "device-1", from: pass.key))
            #expect(try await service.registrationCount(for: pass.key) == 0)
        }
    }

    @Test("an issue overtaken by a newly published version is built again from it", .enabled(if: TestEngine.postgresEnabled))
    func anIssueOvertakenByAVersionIsBuiltFromIt() async throws {
        try await withPassService(engine: .postgres) { service, store, configuration in
            let files = try await store.templateFiles("loyalty", 1)
            let observer = try await configuration.open(poolSize: 2)
            let issued = try await withCleanup {
                try await withThrowingTaskGroup(of: StoredPass?.self) { group in
                    // With the tags' lock held elsewhere, version 2 waits for it first; the issue,
                    // built from version 1 (still current), waits behind it.
                    try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                        group.addTask {
                            _ = try await store.saveTemplateVersion(NewTemplateVersion(
                                name: "loyalty", files: files, digest: "republished", origin: WriteOrigin(actor: "test", source: .api)))
                            return nil
                        }
                        try await AdvisoryLocks.waitForWaiters(1, written: ["template_versions"], untouched: ["passes"], on: observer)
                        group.addTask { try await service.issue(try Self.issue("RACE"), origin: .api) }
                        try await AdvisoryLocks.waitForWaiters(1, written: ["events"], untouched: ["passes", "template_versions"], on: observer)
                    }
                    return try await group.reduce(into: [StoredPass]()) { if let pass = $1 { $0.append(pass) } }
                }
            } cleanup: {
                await observer.close()
            }
            #expect(issued.map(\.templateVersion) == [2], "stored at the version current when it was stored")
            #expect(try await store.pass(PassKey(passTypeIdentifier: try #require(issued.first).key.passTypeIdentifier, serialNumber: "RACE"))?.templateVersion == 2)
            #expect(try await store.auditEntries(AuditFilter(action: "pass.issue")).count == 1, "one issue recorded, not the refused attempt")
        }
    }

    @Test("a bulk batch overtaken by a newly published version is built again from it", .enabled(if: TestEngine.postgresEnabled))
    func aBulkBatchOvertakenByAVersionIsBuiltFromIt() async throws {
        try await withPassService(engine: .postgres) { service, store, configuration in
            try await store.createBulkJob(id: "job_1", template: "loyalty", format: "jsonl", validation: .each, origin: .api)
            try await store.addBulkRecords(job: "job_1", (1...3).map { BulkRecordDraft(line: $0, serialNumber: "B-\($0)", record: #"{"member":{"id":"M-\#($0)","name":"Member"},"points":1,"tier":"Gold"}"#, errors: nil) })
            _ = try await store.openBulkJob("job_1", records: 3, unreadable: 0)
            // The worker's store has one connection of its own: its transaction waits for the tag
            // having written nothing, so PostgreSQL tells it from other tests' by that connection.
            let workerDatabase = try await configuration.open(poolSize: 1)
            let workerConnection = try await AdvisoryLocks.backend(of: workerDatabase)
            let worker = BulkJobWorker(
                store: WalletStore(database: workerDatabase, clock: store.clock), templates: service.templates, configuration: BulkJobWorkerConfiguration(lease: .seconds(60), batchSize: 10, parallelism: 1),
                doorbell: Doorbell(), logger: Logger(label: "test", level: .error))
            let files = try await store.templateFiles("loyalty", 1)
            let observer = try await configuration.open(poolSize: 2)
            try await withCleanup {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    try await AdvisoryLocks.holding(WalletStore.updateTagLock, on: observer) {
                        group.addTask {
                            _ = try await store.saveTemplateVersion(NewTemplateVersion(
                                name: "loyalty", files: files, digest: "republished", origin: WriteOrigin(actor: "test", source: .api)))
                        }
                        try await AdvisoryLocks.waitForWaiters(1, written: ["template_versions"], untouched: ["passes"], on: observer)
                        // The batch, claimed and built from version 1, waits for the tag behind version 2.
                        group.addTask { let claimed = try await worker.round(); #expect(claimed == 3) }
                        try await AdvisoryLocks.waitForWaiters(1, written: [], untouched: [], pid: workerConnection, on: observer)
                    }
                    try await group.waitForAll()
                }
            } cleanup: {
                await observer.close()
                await workerDatabase.close()
            }
            #expect(try await store.bulkJob("job_1")?.issued == 3)
            #expect(try await store.passes(template: "loyalty").map(\.templateVersion) == [2, 2, 2], "stored at the version current when stored")
        }
    }

    // MARK: - Fixtures

    /// A loyalty pass to issue with `serial`, from the sample record.
    static func issue(_ serial: String) throws -> PassService.Issue {
        guard case .object(let record) = try JSONValue.parse(try Samples.record("loyalty").data) else { throw FixtureError() }
        return PassService.Issue(template: "loyalty", serialNumber: serial, data: record, overrides: JSONObject())
    }

    /// A change of the record by merge patch.
    static func data(_ members: [String: JSONValue]) -> PassService.Change {
        PassService.Change(data: .object(JSONObject(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })), overrides: JSONObject(), voided: nil)
    }

    struct FixtureError: Error {}

    /// A top-level member of a stored pass's record.
    static func member(_ name: String, of pass: StoredPass) throws -> JSONValue? {
        guard case .object(let record) = try PassService.value(pass.data) else { return nil }
        return record[name]
    }

    /// A `PassService` over a fresh store with the sample templates; `afterValidation` gets the store,
    /// so a hook can act as another writer.
    func withPassService<T>(
        engine: Engine, clock: (any WalletClock)? = nil, afterValidation: ((WalletStore) -> @Sendable (PassKey) async -> Void)? = nil,
        _ body: (PassService, WalletStore) async throws -> T
    ) async throws -> T {
        try await withPassService(engine: engine, clock: clock, afterValidation: afterValidation) { service, store, _ in try await body(service, store) }
    }

    /// The same, also handing `body` the database's location, to open connections of its own beside
    /// the store's (which has four).
    func withPassService<T>(
        engine: Engine, clock: (any WalletClock)? = nil, afterValidation: ((WalletStore) -> @Sendable (PassKey) async -> Void)? = nil,
        _ body: (PassService, WalletStore, DatabaseConfiguration) async throws -> T
    ) async throws -> T {
        try await engine.withLocation { configuration in
            let database = try await configuration.open(poolSize: 4)
            do {
                let store = clock.map { WalletStore(database: database, clock: $0) } ?? WalletStore(database: database)
                try await store.migrate()
                let templates = try await importedTemplates(into: store)
                let service = PassService(store: store, templates: templates, clock: store.clock, afterValidation: afterValidation?(store))
                let result = try await body(service, store, configuration)
                await database.close()
                return result
            } catch {
                await database.close()
                throw error
            }
        }
    }
}

/// A clock that stays where the test put it.
struct PinnedClock: WalletClock {
    let milliseconds: Int64
    func nowMilliseconds() -> Int64 { milliseconds }
}
