import Foundation
import Locking
import PassModel
import Signing
import Storage
import PasswrightTesting
import Testing
@testable import WalletCore
@testable import WalletHTTP
import WalletStore

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
