import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// The passes have no index by template of their own nor one on the update tag (migration 21): every
/// index of a pass is written again whenever a write changes it, and a roll-out changes every pass.
/// So a template's pages (a template-wide change's, a roll-out's) must be ranges of
/// `passes_template_serial` in its order, and a write's pushes must find its passes' devices by their
/// keys. Asserted on the plans (PostgreSQL's generic ones), and the pages and pushes checked.
@Suite struct TemplatePagePlanTests {
    @Test(arguments: StoreEngine.selected)
    func aTemplatesPageIsARangeOfItsSerialIndex(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await TemplateRolloutPlanTests.seed(store.database)
            // Planned with statistics, as a served PostgreSQL store is: without them, the plan
            // depended on whether autovacuum had analyzed the seeded passes yet.
            if store.database.engine == .postgres { _ = try await store.database.execute(SQL("ANALYZE passes")) }
            let after = PassKey(passTypeIdentifier: Fixture.passType, serialNumber: "E110000")
            for behind in [nil, 2 as Int64?] {
                let page = WalletStore.templatePageQuery("event", behind: behind, after: after, limit: 200, engine: store.database.engine)
                let lines = try await store.database.queryPlan(of: page).lines
                switch store.database.engine {
                case .sqlite:
                    #expect(lines.contains { $0.hasPrefix("SEARCH passes USING INDEX passes_template_serial (template=? AND (serial_number,pass_type_identifier)>(?,?))") }, "\(lines)")
                    #expect(!lines.contains { $0.contains("TEMP B-TREE") }, "no sort: \(lines)")
                case .postgres:
                    #expect(lines.contains { $0.contains("passes_template_serial") }, "\(lines)")
                    #expect(!lines.contains { $0.contains("Sort") || $0.contains("Seq Scan on passes") }, "no sort, no scan: \(lines)")
                }
            }

            // Paged through, every pass of the template comes once, in serial order; the behind ones too.
            var serials: [String] = []
            var last: PassKey?
            repeat {
                let page = try await store.passes(template: "event", after: last, limit: 6_000)
                serials += page.map(\.key.serialNumber)
                last = page.count == 6_000 ? page.last?.key : nil
            } while last != nil
            #expect(serials.count == TemplateRolloutPlanTests.eventPasses)
            #expect(serials == serials.sorted() && Set(serials).count == serials.count)
            var behind: [String] = []
            last = nil
            repeat {
                let page = try await store.passesBehind("event", version: 2, after: last, limit: 7)
                behind += page.map(\.key.serialNumber)
                last = page.count == 7 ? page.last?.key : nil
            } while last != nil
            #expect(behind == (0..<TemplateRolloutPlanTests.behind).map { "E\(100_000 + $0)" })
        }
    }

    @Test(arguments: StoreEngine.selected)
    func aWritesPushesFindItsDevicesByThePassesKeys(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await TemplateRolloutPlanTests.seed(store.database)
            // Two devices for each of the first 2,000 event passes.
            try await store.database.execute(SQL(
                """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 4000)
                INSERT INTO devices (device_library_identifier, push_token, updated_at) SELECT 'device-' || i, 'token-' || i, 0 FROM n
                """))
            try await store.database.execute(SQL(
                """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 4000)
                INSERT INTO registrations (device_library_identifier, pass_type_identifier, serial_number, created_at)
                SELECT 'device-' || i, ?, 'E' || (100000 + i / 2), 0 FROM n
                """, .text(Fixture.passType)))
            let keys = (10..<12).map { PassKey(passTypeIdentifier: Fixture.passType, serialNumber: "E\(100_000 + $0)") }
            let statement = try #require(WalletStore.enqueueStatement(.passes(keys), now: 1))
            let lines = try await store.database.queryPlan(of: statement).lines
            switch store.database.engine {
            case .sqlite:
                #expect(!lines.contains { $0.hasPrefix("SCAN passes") || $0.hasPrefix("SCAN registrations") }, "\(lines)")
                #expect(lines.contains { $0.contains("registrations USING") && $0.contains("pass_type_identifier=? AND serial_number=?") }, "\(lines)")
            case .postgres:
                _ = try await store.database.execute(SQL("ANALYZE"))
                let plan = try await store.database.queryPlan(of: statement).lines
                #expect(!plan.contains { $0.contains("Seq Scan on passes") || $0.contains("Seq Scan on registrations") }, "\(plan)")
                // The same upsert as a write runs it on PostgreSQL, reading the drawn tag with it.
                let readingTag = try #require(WalletStore.pushesReadingTagStatement(keys, now: 1))
                let readingPlan = try await store.database.queryPlan(of: readingTag).lines
                #expect(!readingPlan.contains { $0.contains("Seq Scan on passes") || $0.contains("Seq Scan on registrations") }, "\(readingPlan)")
                #expect(readingPlan.contains { $0.contains("registrations_pass") }, "\(readingPlan)")
            }
            #expect(WalletStore.enqueueStatement(.passes([]), now: 1) == nil)
            let queued = try await store.database.transaction { try await WalletStore.enqueuePushes(.passes(keys), now: 1, in: $0) }
            #expect(queued == 4)
            let devices = try await store.database.query(SQL("SELECT device_library_identifier FROM push_outbox ORDER BY id"))
            #expect(try devices.map { try $0.string("device_library_identifier") } == ["device-20", "device-21", "device-22", "device-23"])
        }
    }
}
