import Foundation
import Locking
import Storage
import PasswrightTesting
import Testing
@testable import WalletStore

/// Compare-and-swap writes on the update tag, and updates whose change is computed outside any
/// transaction, on SQLite and PostgreSQL.
@Suite(.timeLimit(.minutes(1))) struct CompareAndSwapStoreTests {
    @Test(arguments: StoreEngine.selected)
    func aStaleTagIsRefusedAndLeavesTheRowUnchanged(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let created = try await store.createPass(Fixture.pass("001"))
            _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa01", pass: created.key)
            let moved = try #require(try await store.writePass(created.key, expectedTag: created.updateTag, change: PassChange(data: #"{"seat":"2B"}"#)).outcome)
            #expect(moved.changed && moved.pushesQueued == 1 && moved.pass.updateTag > created.updateTag)
            let queued = try await store.outboxStats().queued

            // A change computed from the first version lands nowhere, and says what the row is now.
            let stale = try await store.writePass(created.key, expectedTag: created.updateTag, change: PassChange(data: #"{"seat":"9Z"}"#, voided: true))
            #expect(stale == .conflict(current: moved.pass))
            #expect(try await store.writePass(created.key, expectedTag: created.updateTag, change: nil) == .conflict(current: moved.pass))
            #expect(try await store.pass(created.key) == moved.pass)
            #expect(try await store.outboxStats().queued == queued)

            // With the current tag: an equal change is unchanged, a real one is written.
            #expect(try await store.writePass(created.key, expectedTag: moved.pass.updateTag, change: PassChange(data: moved.pass.data)) == .unchanged(moved.pass))
            #expect(try await store.writePass(created.key, expectedTag: moved.pass.updateTag, change: nil) == .unchanged(moved.pass))
            guard case .written(let written, pushesQueued: 1) = try await store.writePass(created.key, expectedTag: moved.pass.updateTag, change: PassChange(voided: true)) else {
                Issue.record("the write with the current tag must land"); return
            }
            #expect(written.voided && written.data == #"{"seat":"2B"}"# && written.updateTag > moved.pass.updateTag)
            #expect(try await store.writePass(Fixture.key("missing"), expectedTag: 1, change: PassChange(voided: true)) == .notFound)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aBatchWritesWhatIsCurrentAndReturnsTheRest(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            var passes: [StoredPass] = []
            for serial in ["1", "2", "3"] { passes.append(try await store.createPass(Fixture.pass(serial))) }
            let newer = try await store.updatePass(passes[1].key) { _ in PassChange(data: #"{"seat":"elsewhere"}"#) }.pass
            let result = try await store.writePasses([
                PassWriteRequest(PassChange(data: #"{"seat":"moved"}"#), over: passes[0]),
                PassWriteRequest(PassChange(data: #"{"seat":"moved"}"#), over: passes[1]),
                PassWriteRequest(PassChange(data: passes[2].data), over: passes[2]),
                PassWriteRequest(key: Fixture.key("missing"), expectedTag: 1, change: PassChange(voided: true)),
            ])
            #expect(result.written.map(\.key) == [passes[0].key])
            #expect(result.conflicts == [newer])
            #expect(result.unchanged == [passes[2]])
            #expect(result.missing == [Fixture.key("missing")])
            #expect(try await store.pass(passes[1].key) == newer)
            #expect(try await store.pass(passes[2].key) == passes[2])
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aSlowChangeHoldsNoLockAndRetriesOnConflict(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let a = try await store.createPass(Fixture.pass("a", data: #"{"seat":"1A"}"#)).key
            let b = try await store.createPass(Fixture.pass("b")).key
            let computing = Gate(), release = Gate()
            let runs = Locked(0)
            // The update of pass a stops while computing its change, until the test lets it go.
            let slow = Task {
                try await store.updatePass(a) { current in
                    if runs.withLock({ $0 += 1; return $0 }) == 1 {
                        computing.open()
                        await release.wait()
                    }
                    return PassChange(data: try JSONText.setting("tier", to: "gold", in: current.data))
                }
            }
            await computing.wait()
            // Meanwhile other writers get through: were a transaction open, SQLite's writer or
            // PostgreSQL's row lock would hold them until the test (which waits for them) let go.
            let other = try await store.updatePass(b) { _ in PassChange(voided: true) }
            #expect(other.changed)
            let concurrent = try await store.updatePass(a) { current in PassChange(data: try JSONText.setting("gate", to: "B12", in: current.data)) }
            #expect(concurrent.changed)
            release.open()
            let outcome = try await slow.value
            // The slow change saw a stale row, was refused, and was computed again on the new one.
            #expect(runs.withLock { $0 } == 2)
            #expect(outcome.changed && outcome.pass.updateTag > concurrent.pass.updateTag)
            #expect(try await store.pass(a)?.data == #"{"gate":"B12","seat":"1A","tier":"gold"}"#)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aTemplateUpdateComputesOutsideAndRecomputesConflicts(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            for serial in ["1", "2", "3"] { _ = try await store.createPass(Fixture.pass(serial)) }
            let computing = Gate(), release = Gate()
            let runs = Locked<[String]>([])
            let update = Task {
                try await store.updatePasses(template: "event") { current in
                    let first = runs.withLock { runs in runs.append(current.key.serialNumber); return runs.count == 2 }
                    if first {
                        computing.open()
                        await release.wait()
                    }
                    return PassChange(data: try JSONText.setting("tier", to: "gold", in: current.data))
                }
            }
            await computing.wait()
            // Pass 1's change is computed already, pass 2's is being computed: change both under it.
            for serial in ["1", "2"] {
                _ = try await store.updatePass(Fixture.key(serial)) { current in PassChange(data: try JSONText.setting("gate", to: "B12", in: current.data)) }
            }
            release.open()
            let outcome = try await update.value
            #expect(outcome.matched == 3 && outcome.changed == 3)
            #expect(runs.withLock { $0 } == ["1", "2", "3", "1", "2"])
            for serial in ["1", "2"] {
                #expect(try await store.pass(Fixture.key(serial))?.data == #"{"gate":"B12","seat":"1A","tier":"gold"}"#)
            }
            #expect(try await store.pass(Fixture.key("3"))?.data == #"{"seat":"1A","tier":"gold"}"#)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func anUpdateThatKeepsLosingGivesUpWithAConflict(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let key = try await store.createPass(Fixture.pass("busy", data: "0")).key
            let runs = Locked(0)
            // Every computation is overtaken by another writer before it can be written.
            let error = await #expect(throws: WalletStoreError.self) {
                try await store.updatePass(key, maxAttempts: 3) { current in
                    runs.withLock { $0 += 1 }
                    _ = try await store.updatePass(key) { latest in PassChange(data: String(Int(latest.data)! + 1)) }
                    return PassChange(data: "overwritten")
                }
            }
            guard case .updateConflict(key, attempts: 3)? = error else { Issue.record("expected updateConflict, got \(String(describing: error))"); return }
            #expect(runs.withLock { $0 } == 3)
            #expect(try await store.pass(key)?.data == "3")
        }
    }
}

/// Edits a JSON object's text with sorted keys, as the service stores records.
enum JSONText {
    static func setting(_ key: String, to value: String, in text: String) throws -> String {
        var object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        object[key] = value
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
