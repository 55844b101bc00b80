import Foundation
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// How far each template's roll-out got is read by the template list, each template's page and the
/// roll-out worker at every start and upload; at a million passes, grouping a join of every pass took
/// 0.39 s of PostgreSQL per call (issue #29). The counts come from `template_version_passes`, which
/// the database keeps by triggers on the passes, so they read none of the passes: asserted on the
/// engine's plan, not on a time, and the answers checked after each kind of statement that writes
/// the passes (insert, move, delete), written here as raw SQL so no store code keeps them.
@Suite struct TemplateRolloutPlanTests {
    static let eventPasses = 20_000
    static let behind = 30
    static let couponPasses = 500

    @Test(arguments: StoreEngine.selected)
    func rolloutsReadTheCountsNotThePasses(engine: StoreEngine) async throws {
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

            for query in [WalletStore.templatesBehindQuery, WalletStore.templateRolloutsQuery(named: nil), WalletStore.templateRolloutsQuery(named: "event")] {
                try await Self.expectCountsOnly(query, store: store)
            }
        }
    }

    @Test(arguments: StoreEngine.selected)
    func countsFollowEveryStatementThatWritesThePasses(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            // Ten of the passes behind move to the current version in one statement, then one coupon
            // moves to the event template (a move of template and version at once).
            try await store.database.execute(SQL(
                """
                UPDATE passes SET template_version = 2, update_tag = update_tag + 1000000
                WHERE template = 'event' AND template_version = 1 AND serial_number < 'E100010'
                """))
            try await store.database.execute(SQL(
                "UPDATE passes SET template = 'event', template_version = 1 WHERE serial_number = 'C100000'"))
            // A statement that changes neither leaves the counts alone.
            try await store.database.execute(SQL("UPDATE passes SET last_notified_at = 1 WHERE template = 'event'"))
            #expect(try await store.templateRollouts() == [
                TemplateRollout(name: "coupon", currentVersion: 1, passes: Self.couponPasses - 1, behind: 0),
                TemplateRollout(name: "event", currentVersion: 2, passes: Self.eventPasses + 1, behind: Self.behind - 10 + 1),
            ])
            // Every pass behind deleted: nothing is behind, so the worker has nothing to roll out.
            try await store.database.execute(SQL("DELETE FROM passes WHERE template = 'event' AND template_version = 1"))
            #expect(try await store.templateRollouts(named: "event") == [
                TemplateRollout(name: "event", currentVersion: 2, passes: Self.eventPasses - Self.behind + 10, behind: 0)])
            #expect(try await store.templatesBehind().isEmpty)
        }
    }

    /// A store from before the counts: its passes are counted when the table arrives, and a voided
    /// pass is found by retention through the generated column, as by its last change before.
    @Test(arguments: StoreEngine.selected)
    func passesStoredBeforeTheCountsAreCountedByTheMigration(engine: StoreEngine) async throws {
        try await engine.withLocation { configuration in
            let database = try await configuration.open(poolSize: 2)
            try await withCleanup {
                try await database.migrate(WalletSchema.migrations.filter { $0.version < WalletSchema.heapOnlyPassUpdates.version })
                try await Self.seed(database)
                try await database.execute(SQL("UPDATE passes SET voided = TRUE, updated_at = 5000 WHERE serial_number = 'C100001'"))
                let store = WalletStore(database: database, clock: TestClock())
                try await store.migrate()
                #expect(try await store.templateRollouts() == [
                    TemplateRollout(name: "coupon", currentVersion: 1, passes: Self.couponPasses, behind: 0),
                    TemplateRollout(name: "event", currentVersion: 2, passes: Self.eventPasses, behind: Self.behind),
                ])
                #expect(try await store.templateCounts() == ["coupon": Self.couponPasses, "event": Self.eventPasses])
                #expect(try await store.voidedPasses(before: Date(timeIntervalSince1970: 6)).map(\.serialNumber) == ["C100001"])
                #expect(try await store.voidedPasses(before: Date(timeIntervalSince1970: 5)).isEmpty)
            } cleanup: {
                await database.close()
            }
        }
    }

    /// On PostgreSQL a roll-out's change of a pass (its version, tag and time) is a heap-only update:
    /// no index holds a column it changes and the passes' pages keep room for the new row, so no index
    /// is written. Counted by PostgreSQL for this transaction, over every pass of the seed.
    @Test(arguments: StoreEngine.selected.filter { $0 == .postgres })
    func aRolloutsChangeOfEveryPassIsHeapOnly(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            let counted = try await store.database.transaction { transaction in
                let updated = try await transaction.execute(SQL(
                    """
                    UPDATE passes SET template_version = template_version + 1, update_tag = update_tag + 1000000,
                                      updated_at = updated_at + 1000, data = data, overrides = overrides
                    """))
                let hot = try await transaction.query(SQL(
                    "SELECT pg_stat_get_xact_tuples_hot_updated(CAST('passes' AS regclass)) AS hot"))[0].int("hot")
                return (updated: updated, hot: hot)
            }
            #expect(counted.updated == Self.eventPasses + Self.couponPasses)
            #expect(counted.hot == counted.updated)
        }
    }

    /// `query`'s plan reads `template_version_passes` and no row of the passes.
    static func expectCountsOnly(_ query: SQL, store: WalletStore) async throws {
        if store.database.engine == .postgres { _ = try await store.database.execute(SQL("ANALYZE")) }
        let plan = try await store.database.queryPlan(of: query)
        switch store.database.engine {
        case .sqlite:
            // Planned without ANALYZE statistics, as a production SQLite store is.
            #expect(!plan.lines.contains { $0.contains(" passes ") || $0.hasSuffix(" passes") }, "\(plan)")
            #expect(plan.lines.contains { $0.hasPrefix("SEARCH counts USING INDEX sqlite_autoindex_template_version_passes_1 (template=? AND version") }, "\(plan)")
        case .postgres:
            #expect(!plan.lines.contains { $0.contains(" on passes") }, "\(plan)")
            #expect(plan.lines.contains { $0.contains("on template_version_passes counts") }, "\(plan)")
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
