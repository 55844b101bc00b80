import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// How far each template's roll-out got is read by the template list, each template's page and the
/// roll-out worker at every start and upload; at a million passes, grouping a join of every pass took
/// 0.39 s of PostgreSQL per call (issue #29). The counts must read one template's own index entries,
/// and the worker's question ("is any pass behind?") one probe: asserted on the engine's plan, not on
/// a time, and the answers checked.
@Suite struct TemplateRolloutPlanTests {
    static let eventPasses = 20_000
    static let behind = 30
    static let couponPasses = 500

    @Test(arguments: StoreEngine.selected)
    func rolloutsReadEachTemplatesOwnIndexEntries(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            #expect(try await store.templateRollouts() == [
                TemplateRollout(name: "coupon", currentVersion: 1, passes: Self.couponPasses, behind: 0),
                TemplateRollout(name: "event", currentVersion: 2, passes: Self.eventPasses, behind: Self.behind),
            ])
            #expect(try await store.templateRollouts(named: "event") == [TemplateRollout(name: "event", currentVersion: 2, passes: Self.eventPasses, behind: Self.behind)])
            #expect(try await store.templateRollouts(named: "absent") == [])
            #expect(try await store.templatesBehind().map(\.name) == ["event"])
            #expect(try await store.templatesBehind().map(\.currentVersion) == [2])

            // The worker's probe: never a scan of the passes, on either engine.
            try await Self.expectIndexed(WalletStore.templatesBehindQuery, store: store, scanAllowed: false)
            // The counts: "behind" through the index; a template's whole count PostgreSQL may take
            // by a scan when that template holds most passes (as here), which reads that many anyway.
            try await Self.expectIndexed(WalletStore.templateRolloutsQuery(named: nil), store: store, scanAllowed: true)
            try await Self.expectIndexed(WalletStore.templateRolloutsQuery(named: "event"), store: store, scanAllowed: true)
        }
    }

    /// `query` reads the passes of each template through `passes_template_version`, the versions
    /// behind by its range (`template_version <`); with `scanAllowed`, PostgreSQL may count a
    /// template's passes by a scan beside it.
    static func expectIndexed(_ query: SQL, store: WalletStore, scanAllowed: Bool) async throws {
        switch store.database.engine {
        case .sqlite:
            // Planned without ANALYZE statistics, as a production SQLite store is.
            let plan = try await store.database.queryPlan(of: query)
            let onPasses = plan.lines.filter { $0.contains(" passes ") }
            #expect(!onPasses.isEmpty && onPasses.allSatisfy { $0.hasPrefix("SEARCH passes USING COVERING INDEX passes_template") }, "\(plan)")
            #expect(onPasses.contains { $0.contains("template=? AND template_version<?") }, "\(plan)")
        case .postgres:
            _ = try await store.database.execute(SQL("ANALYZE passes"))
            _ = try await store.database.execute(SQL("ANALYZE templates"))
            let plan = try await store.database.queryPlan(of: query).lines.joined(separator: "\n")
            if !scanAllowed { #expect(!plan.contains("Seq Scan on passes"), "\(plan)") }
            #expect(plan.contains("Index Cond: ((template = templates.name) AND (template_version < templates.current_version))"), "\(plan)")
            #expect(plan.contains("passes_template_version"), "\(plan)")
        }
    }

    /// Two templates: `event` at version 2 with `eventPasses` passes, the first `behind` of them still
    /// on version 1, and `coupon` at version 1 with `couponPasses`, written by the engine itself.
    static func seed(_ database: any Database) async throws {
        try await database.execute(SQL(
            "INSERT INTO templates (name, current_version, created_at, updated_at) VALUES ('event', 2, 0, 0), ('coupon', 1, 0, 0)"))
        try await database.execute(SQL(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO passes (pass_type_identifier, serial_number, template, template_version, data, authentication_token, update_tag, created_at, updated_at)
            SELECT ?, 'E' || (100000 + i), 'event', CASE WHEN i < ? THEN 1 ELSE 2 END, '{}', 'token', i + 1, 0, 0 FROM n
            """,
            .integer(Int64(eventPasses)), .text(Fixture.passType), .integer(Int64(behind))))
        try await database.execute(SQL(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO passes (pass_type_identifier, serial_number, template, template_version, data, authentication_token, update_tag, created_at, updated_at)
            SELECT ?, 'C' || (100000 + i), 'coupon', 1, '{}', 'token', 100000 + i, 0, 0 FROM n
            """,
            .integer(Int64(couponPasses)), .text(Fixture.passType)))
    }
}
