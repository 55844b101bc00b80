import Foundation
import PassModel
import Storage
import Testing
@testable import WalletStore

/// Every written change leaves one history row in its own transaction, with its source and the
/// top-level keys it changed; nothing else does. On SQLite and PostgreSQL.
@Suite struct PassHistoryStoreTests {
    @Test(arguments: StoreEngine.selected)
    func eachWrittenChangeIsRecordedWithItsSourceAndKeys(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let created = try await store.createPass(Fixture.pass("h1", data: #"{"gate":"A","seat":"1A"}"#))
            #expect(try await store.passUpdates(for: created.key).isEmpty, "issuing is not an update")

            clock.advance(.seconds(5))
            let first = try await store.updatePass(created.key) { _ in PassChange(data: #"{"seat":"2B","tier":"gold"}"#) }.pass
            clock.advance(.seconds(5))
            guard case .written(let second, _) = try await store.writePass(
                created.key, expectedTag: first.updateTag,
                change: PassChange(overrides: #"{"locations":[{"latitude":1,"longitude":2}]}"#, voided: true), origin: WriteOrigin(actor: PassUpdateRecord.console, source: .console))
            else { Issue.record("not written"); return }

            // Neither an equal change nor a stale one is recorded.
            #expect(try await store.writePass(created.key, expectedTag: second.updateTag, change: PassChange(data: second.data), origin: WriteOrigin(actor: "noise", source: .api)) == .unchanged(second))
            if case .conflict = try await store.writePass(created.key, expectedTag: first.updateTag, change: PassChange(voided: false), origin: WriteOrigin(actor: "noise", source: .api)) {} else {
                Issue.record("a stale tag must conflict")
            }

            let history = try await store.passUpdates(for: created.key)
            #expect(history.map(\.source) == ["console", "api"], "newest first")
            #expect(history.map(\.updateTag) == [second.updateTag, first.updateTag])
            #expect(history[1].changes == ["data.gate", "data.seat", "data.tier"], "removed, changed and added keys")
            #expect(history[0].changes == ["overrides.locations", "voided"])
            #expect(history[1].changedAt == Date(timeIntervalSince1970: 1_700_000_005.25))
            #expect(history[0].changedAt == Date(timeIntervalSince1970: 1_700_000_010.25))
            #expect(history.allSatisfy { $0.key == created.key })
            #expect(history[0].id > history[1].id)
            #expect(try await store.passUpdates(for: created.key, limit: 1).map(\.source) == ["console"])
            #expect(try await store.passUpdates(for: Fixture.key("h2")).isEmpty)

            // A record that is not an object changes "data" as a whole.
            let plain = try await store.createPass(Fixture.pass("h2", data: "1"))
            _ = try await store.updatePass(plain.key, source: "test") { _ in PassChange(data: "2") }
            #expect(try await store.passUpdates(for: plain.key).map(\.changes) == [["data"]])
        }
    }

    @Test(arguments: StoreEngine.selected)
    func templateWideUpdatesAndRollOutsRecordOneRowPerPass(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let files = [(path: "pass.json", bytes: Data("{}".utf8))]
            _ = try await store.saveTemplateVersion(NewTemplateVersion(name: "event", files: files, digest: "v1", origin: WriteOrigin(actor: "test", source: .api)))
            var keys: [PassKey] = []
            for serial in ["t1", "t2", "t3"] {
                var pass = Fixture.pass(serial)
                pass.templateVersion = 1
                keys.append(try await store.createPass(pass).key)
            }
            _ = try await store.updatePass(keys[2]) { _ in PassChange(data: #"{"seat":"moved"}"#) }
            let outcome = try await store.updatePasses(template: "event", source: "batch") { _ in PassChange(data: #"{"seat":"moved"}"#) }
            #expect(outcome.changed == 2)
            for key in keys.prefix(2) {
                #expect(try await store.passUpdates(for: key).map(\.source) == ["batch"])
                #expect(try await store.passUpdates(for: key).first?.changes == ["data.seat"])
            }
            #expect(try await store.passUpdates(for: keys[2]).map(\.source) == ["api"], "the unchanged pass has no batch row")

            _ = try await store.saveTemplateVersion(NewTemplateVersion(name: "event", files: files, digest: "v2", origin: WriteOrigin(actor: "test", source: .api)))
            let batch = try await store.updatePasses(template: "event", source: "template v2") { _ in PassChange(templateVersion: 2) }
            #expect(batch.changed == 3)
            for key in keys {
                let newest = try #require(try await store.passUpdates(for: key).first)
                #expect(newest.source == "template v2" && newest.changes == ["templateVersion"])
                #expect(newest.updateTag == (try await store.pass(key))?.updateTag)
            }
        }
    }

    @Test func changedKeysCompareMemberTextsWhateverTheyHold() {
        #expect(JSONMembers.changedKeys(from: #"{"a":1,"b":{"c":"}"},"d":[1,[2]]}"#, to: #"{"a":1,"b":{"c":"}"},"d":[1,[3]]}"#) == ["d"])
        #expect(JSONMembers.changedKeys(from: #" { "a" : "x\"y" , "b" : null } "#, to: #"{"a":"x\"y","b":true}"#) == ["b"])
        // Escaped keys are decoded: the same key written two ways is the same member.
        #expect(JSONMembers.changedKeys(from: #"{"sp\u00e9cial":1,"tab\t":2}"#, to: #"{"spécial":1}"#) == ["tab\t"])
        #expect(JSONMembers.changedKeys(from: "{}", to: #"{"new":[]}"#) == ["new"])
        #expect(JSONMembers.changedKeys(from: "[1]", to: "{}") == nil)
        #expect(JSONMembers.changedKeys(from: #"{"a":1"#, to: "{}") == nil, "malformed")
        #expect(WalletStore.changesText(["data.a\"b", "voided"]) == #"["data.a\"b","voided"]"#)
    }
}
