import Foundation
import PassModel
import Storage
import Testing
@testable import WalletStore

/// The audit trail as the store keeps it: a row exactly when its change lands (a conflicting or
/// unchanged write leaves none), with the write's origin and the names of what changed; filters,
/// paging newest first, pruning by age. On SQLite and PostgreSQL.
@Suite struct AuditStoreTests {
    @Test(arguments: StoreEngine.selected)
    func aRowExactlyWhenTheChangeLands(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let crm = WriteOrigin(actor: "key k1", source: .cli, address: "192.0.2.7")
            let created = try await store.createPass(Fixture.pass("a1", data: #"{"name":"Grace","seat":"1A"}"#), origin: crm)
            guard case .written(let written, _) = try await store.writePass(
                created.key, expectedTag: created.updateTag, change: PassChange(data: #"{"name":"Grace","seat":"2B"}"#), origin: crm)
            else { Issue.record("not written"); return }
            // A stale tag and an equal change write nothing, so they audit nothing.
            if case .conflict = try await store.writePass(created.key, expectedTag: created.updateTag, change: PassChange(voided: true), origin: crm) {} else {
                Issue.record("a stale tag must conflict")
            }
            #expect(try await store.writePass(created.key, expectedTag: written.updateTag, change: PassChange(data: written.data), origin: crm) == .unchanged(written))

            let rows = try await store.auditEntries(AuditFilter(target: AuditDraft.pass(created.key)))
            #expect(rows.map(\.action) == ["pass.update", "pass.issue"])
            #expect(rows.allSatisfy { $0.actor == "key k1" && $0.source == .cli && $0.address == "192.0.2.7" })
            #expect(rows[0].changes == ["data.seat"])
            #expect(rows[1].changes == ["data.name", "data.seat"])
            #expect(rows[0].id > rows[1].id)

            // Filters and paging.
            try await store.appendAudit([AuditDraft(action: "console.sign-in", target: "console")], by: WriteOrigin(actor: "console", source: .console))
            #expect(try await store.auditEntries(AuditFilter(source: .console)).map(\.action) == ["console.sign-in"])
            #expect(try await store.auditEntries(AuditFilter(actor: "key k1", action: "pass.issue")).count == 1)
            let newest = try await store.auditEntries(AuditFilter(), limit: 1)
            #expect(newest.map(\.action) == ["console.sign-in"])
            #expect(try await store.auditEntries(AuditFilter(), before: newest[0].id, limit: 5).map(\.action) == ["pass.update", "pass.issue"])

            // Pruning takes what is older than the cutoff, nothing newer.
            clock.advance(.seconds(3600))
            try await store.appendAudit([AuditDraft(action: "console.sign-out", target: "console")], by: WriteOrigin(actor: "console", source: .console))
            #expect(try await store.pruneAudit(before: clock.now().addingTimeInterval(-60)) == 3)
            #expect(try await store.auditEntries(AuditFilter()).map(\.action) == ["console.sign-out"])
        }
    }
}
