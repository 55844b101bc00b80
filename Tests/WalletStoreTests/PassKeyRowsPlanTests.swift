import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// Reading many passes by key (every batch of a template-wide change, a roll-out, held changes, a bulk
/// job's bundle) must cost a primary-key search per key, not a pass through the table: SQLite planned
/// the row-value `IN (VALUES …)` it used as a scan of a whole index, so each batch cost as much as the
/// table is large (found profiling bundle downloads). Asserted on the engine's plan, not on a time.
@Suite struct PassKeyRowsPlanTests {
    @Test(arguments: StoreEngine.selected)
    func manyPassesAreReadOnePrimaryKeySearchEach(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await UpdatedSerialsPlanTests.seed(store.database)
            if store.database.engine == .postgres { _ = try await store.database.execute(SQL("ANALYZE passes")) }
            let keys = (0..<50).map { Fixture.key("S\(100_000 + $0 * 37)") } + [Fixture.key("missing")]
            var plan: QueryPlan?
            let rows = try await PassKeyRows.select(StoredPass.self, columns: StoredPass.columns, from: "passes", keys: keys) { sql in
                plan = try await store.database.queryPlan(of: sql)
                return try await store.database.query(sql)
            }
            #expect(Set(rows.keys) == Set(keys.dropLast()) && rows.values.allSatisfy { rows[$0.key]?.key == $0.key })
            let lines = try #require(plan).lines
            switch store.database.engine {
            case .sqlite:
                #expect(!lines.contains { $0.hasPrefix("SCAN passes") }, "\(lines)")
                #expect(lines.contains { $0.hasPrefix("SEARCH passes") && $0.contains("pass_type_identifier=? AND serial_number=?") }, "\(lines)")
            case .postgres:
                #expect(!lines.contains { $0.contains("Seq Scan on passes") }, "\(lines)")
                #expect(lines.contains { $0.contains("passes_pkey") }, "\(lines)")
            }
        }
    }
}
