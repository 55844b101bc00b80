import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// The console's serial-number search must cost the page, not the passes: a prefix is a range seek
/// on `passes_serial` (on `passes_template_serial` within a template) that also yields the page order,
/// so no sort. Asserted on each engine's plan, not on a time.
@Suite struct PassSearchPlanTests {
    static let passes = 20_000

    /// The statements a search for the prefix `S1234` issues, first page and a later one, with and
    /// without a template, with the index each must seek.
    static func prefixQueries(_ engine: DatabaseEngine) -> [(sql: SQL, index: String)] {
        let cursor = PassKey(passTypeIdentifier: Fixture.passType, serialNumber: "S12345")
        return [
            (WalletStore.searchQuery(.serialPrefix("S1234"), template: nil, after: nil, limit: 51, engine: engine), "passes_serial"),
            (WalletStore.searchQuery(.serialPrefix("S1234"), template: nil, after: cursor, limit: 51, engine: engine), "passes_serial"),
            (WalletStore.searchQuery(.serialPrefix("S1234"), template: "event", after: nil, limit: 51, engine: engine), "passes_template_serial"),
            (WalletStore.searchQuery(.serialPrefix("S1234"), template: "event", after: cursor, limit: 51, engine: engine), "passes_template_serial"),
        ]
    }

    @Test(arguments: StoreEngine.selected)
    func aSerialPrefixIsARangeSeekInPageOrder(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            if store.database.engine == .postgres {
                // With statistics, as autovacuum keeps them.
                _ = try await store.database.execute(SQL("ANALYZE passes"))
            }
            for (query, index) in Self.prefixQueries(store.database.engine) {
                let plan = try await store.database.queryPlan(of: query)
                switch plan.engine {
                case .sqlite:
                    // Planned without ANALYZE statistics, as a production SQLite store is.
                    let loops = plan.lines.filter { $0.hasPrefix("SEARCH ") || $0.hasPrefix("SCAN ") }
                    #expect(loops.count == 1, "\(plan)")
                    #expect(loops.first?.hasPrefix("SEARCH passes USING INDEX \(index) (") == true, "a seek on \(index):\n\(plan)")
                    #expect(loops.first?.contains("serial_number>? AND serial_number<?") == true, "the prefix is the range:\n\(plan)")
                    #expect(!plan.lines.contains { $0.contains("TEMP B-TREE") }, "the index yields the order, no sort:\n\(plan)")
                case .postgres:
                    #expect(!plan.lines.contains { $0.contains("Seq Scan") }, "\(plan)")
                    #expect(plan.lines.first { $0.contains(" on passes") }?.contains("Index Scan using \(index) on passes") == true, "a seek on \(index):\n\(plan)")
                    #expect(plan.lines.contains { $0.contains("Index Cond") && $0.contains("serial_number") && $0.contains(">=") && $0.contains("<") }, "the prefix is the range:\n\(plan)")
                    #expect(!plan.lines.contains { $0.contains("Sort") }, "the index yields the order, no sort:\n\(plan)")
                }
            }

            // And the answer: S1234 and S12340…S12349, in order, in pages.
            let expected = (["S1234"] + (0...9).map { "S1234\($0)" })
            let first = try await store.searchPasses(PassSearch(text: "S1234", limit: 6))
            #expect(first.passes.map(\.key.serialNumber) == Array(expected.prefix(6)))
            let second = try await store.searchPasses(PassSearch(text: "S1234", after: first.next, limit: 6))
            #expect(second.passes.map(\.key.serialNumber) == Array(expected.dropFirst(6)))
            #expect(second.next == nil)
        }
    }

    /// Passes `S0`…`S19999` of one type, templates `event` and `coupon` alternating, written by the
    /// engine itself.
    static func seed(_ database: any Database) async throws {
        try await database.execute(SQL(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO passes (pass_type_identifier, serial_number, template, data, authentication_token, update_tag, created_at, updated_at)
            SELECT ?, 'S' || i, CASE WHEN i % 2 = 0 THEN 'event' ELSE 'coupon' END, '{}', 'token', i + 1, 0, 0 FROM n
            """,
            .integer(Int64(passes)), .text(Fixture.passType)
        ))
    }
}
