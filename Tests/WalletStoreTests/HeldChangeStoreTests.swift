import Foundation
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// Held changes keep the writer's edits, compare-and-swapped with the pass, and a database from
/// before keeps its holds across the migration.
struct HeldChangeStoreTests {
    @Test(arguments: StoreEngine.selected)
    func aHoldLandsWithItsPassAndConflictsLikeATag(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let pass = try await store.createPass(Fixture.pass("held"))
            let hold = PassHold(key: pass.key, edits: #"[{"data":{"seat":"9Z"}}]"#, templateVersion: 3, releaseAtMilliseconds: 1_700_000_100_000)
            // Holding writes no pass: no tag moves, no history, no push.
            let stored = try await store.writePass(PassWriteRequest(key: pass.key, expectedTag: pass.updateTag, change: nil, hold: .replace(hold)))
            #expect(stored == .unchanged(pass))
            #expect(try await store.hold(pass.key) == hold)
            #expect(try await store.passUpdates(for: pass.key).isEmpty)
            // A writer that read the pass without the hold must not overwrite it.
            let stale = try await store.writePass(PassWriteRequest(
                key: pass.key, expectedTag: pass.updateTag, expectedHold: nil, change: PassChange(voided: true), hold: .remove))
            #expect(stale == .conflict(current: pass))
            #expect(try await store.hold(pass.key) == hold)
            // With the hold it read, it lands: the pass is written and the hold removed together.
            guard case .written(let written, _) = try await store.writePass(PassWriteRequest(
                key: pass.key, expectedTag: pass.updateTag, expectedHold: hold.edits, change: PassChange(voided: true), hold: .remove)) else {
                Issue.record("the write with the current hold did not land"); return
            }
            #expect(written.voided)
            #expect(try await store.hold(pass.key) == nil)
        }
    }

    @Test("a batch records the notification time of exactly the written passes whose change notifies, across pass types", arguments: StoreEngine.selected)
    func aBatchRecordsNotificationsOfTheNotifyingWrites(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let a = try await store.createPass(Fixture.pass("notify-a"))
            let b = try await store.createPass(Fixture.pass("notify-b", type: Fixture.otherPassType))
            let silent = try await store.createPass(Fixture.pass("silent"))
            let stale = try await store.createPass(Fixture.pass("stale"))
            let result = try await store.writePasses([
                PassWriteRequest(key: a.key, expectedTag: a.updateTag, change: PassChange(data: #"{"seat":"2A"}"#), notifies: true),
                PassWriteRequest(key: b.key, expectedTag: b.updateTag, change: PassChange(data: #"{"seat":"2B"}"#), notifies: true),
                PassWriteRequest(key: silent.key, expectedTag: silent.updateTag, change: PassChange(data: #"{"seat":"2C"}"#)),
                // A conflict does not land, so it is not notified either.
                PassWriteRequest(key: stale.key, expectedTag: stale.updateTag - 1, change: PassChange(data: #"{"seat":"2D"}"#), notifies: true),
            ])
            #expect(Set(result.written.map(\.key)) == [a.key, b.key, silent.key])
            #expect(result.conflicts.map(\.key) == [stale.key])
            let now = store.clock.nowMilliseconds()
            #expect(try await store.pass(a.key)?.lastNotifiedAtMilliseconds == now)
            #expect(try await store.pass(b.key)?.lastNotifiedAtMilliseconds == now)
            #expect(try await store.pass(silent.key)?.lastNotifiedAtMilliseconds == nil)
            #expect(try await store.pass(stale.key)?.lastNotifiedAtMilliseconds == nil)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func holdsOfTheOldShapeBecomeEditsThatSetTheWholeState(engine: StoreEngine) async throws {
        try await engine.withLocation { configuration in
            let database = try await configuration.open(poolSize: 2)
            try await withCleanup {
                try await database.migrate(WalletSchema.migrations.filter { $0.version <= 4 })
                let store = WalletStore(database: database, clock: TestClock())
                // Written as that schema's build wrote it (today's createPass writes tables version 4 lacks).
                let pass = Fixture.pass("old-hold")
                _ = try await database.execute(SQL(
                    """
                    INSERT INTO passes (pass_type_identifier, serial_number, template, data, overrides, authentication_token,
                                        update_tag, voided, created_at, updated_at)
                    VALUES (?, ?, ?, ?, '{}', ?, 1, FALSE, 1700000000000, 1700000000000)
                    """,
                    .text(pass.key.passTypeIdentifier), .text(pass.key.serialNumber), .text(pass.template), .text(pass.data),
                    .text(pass.authenticationToken)))
                _ = try await database.transaction { transaction in
                    try await transaction.execute(SQL(
                        """
                        INSERT INTO pass_holds (pass_type_identifier, serial_number, data, overrides, voided, release_at, held_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                        .text(pass.key.passTypeIdentifier), .text(pass.key.serialNumber), .text(#"{"seat":"2B"}"#), .text("{}"),
                        .integer(1), .integer(1_700_000_200_000), .integer(1_700_000_000_000)))
                }
                try await store.migrate()
                let hold = try #require(try await store.hold(pass.key))
                #expect(hold.releaseAtMilliseconds == 1_700_000_200_000)
                #expect(hold.templateVersion == nil)
                let edits = try JSONSerialization.jsonObject(with: Data(hold.edits.utf8)) as? [[String: Any]]
                #expect(edits?.count == 1)
                #expect((edits?.first?["data"] as? [String: String]) == ["seat": "2B"])
                #expect(edits?.first?["voided"] as? Bool == true)
            } cleanup: {
                await database.close()
            }
        }
    }
}
