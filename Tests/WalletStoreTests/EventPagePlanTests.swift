import Foundation
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// A page of `GET /api/v1/events` must cost the page, not the log: with a million events, a page far
/// down the log is an index seek from the cursor, for the whole log and for one type or template.
/// Asserted on each engine's plan, not on a time.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PASSWRIGHT_TEST_MODE"] != "thread", "all engine work, nothing for ThreadSanitizer to see"))
struct EventPagePlanTests {
    static let events = 1_000_000

    @Test(arguments: StoreEngine.selected)
    func aPageIsASeekFromTheCursor(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            // 500 events before the end of the log, in the seeding transaction (PostgreSQL orders by it first).
            let seeded = store.database.engine == .postgres
                ? try await store.database.query(SQL("SELECT CAST(CAST(tx AS TEXT) AS BIGINT) AS tx FROM events LIMIT 1"))[0].int64("tx") : 0
            let far = EventCursor(transaction: seeded, id: Int64(Self.events - 500))
            let unfiltered = WalletStore.eventPageQuery(engine: store.database.engine, after: far, types: nil, template: nil, limit: 101)
            let byType = WalletStore.eventPageQuery(engine: store.database.engine, after: far, types: [.passUpdated], template: nil, limit: 101)
            let byTemplate = WalletStore.eventPageQuery(engine: store.database.engine, after: far, types: nil, template: "t3", limit: 101)
            switch store.database.engine {
            case .sqlite:
                let plans = try await [unfiltered, byType, byTemplate].asyncMap { try await store.database.queryPlan(of: $0) }
                #expect(plans[0].lines.contains { $0.contains("SEARCH events USING INTEGER PRIMARY KEY (rowid>?)") }, "\(plans[0])")
                #expect(plans[1].lines.contains { $0.contains("SEARCH events USING INDEX events_type (type=? AND id>?)") }, "\(plans[1])")
                #expect(plans[2].lines.contains { $0.contains("SEARCH events USING INDEX events_template (template=? AND id>?)") }, "\(plans[2])")
                #expect(!plans.contains { $0.lines.contains { $0.contains("TEMP B-TREE") } }, "no sort of the matching rows")
            case .postgres:
                _ = try await store.database.execute(SQL("ANALYZE events"))
                let plans = try await [unfiltered, byType, byTemplate].asyncMap { try await store.database.queryPlan(of: $0) }
                // An index scan whose condition starts at the cursor (with a filter, the planner may walk the
                // log's order from the cursor or the type's or template's index; both are seeks).
                for plan in plans {
                    #expect(plan.lines.contains { $0.contains("Index Scan using events_") }, "\(plan)")
                    #expect(plan.lines.contains { $0.contains("Index Cond:") && $0.contains("ROW(tx, id) > ROW(") }, "\(plan)")
                }
                #expect(!plans.contains { $0.lines.contains { $0.contains("Seq Scan") || $0.contains("Sort") } }, "\(plans)")
            }
            // And the page is the right one: the 100 events after the cursor, in order.
            let page = try await store.events(after: far, limit: 100)
            #expect(page.map(\.id) == (Self.events - 499...Self.events - 400).map { "evt_\($0)" })
        }
    }

    /// A million events over 10 templates and 3 types, written by the engine itself.
    static func seed(_ database: any Database) async throws {
        let types = "CASE n % 3 WHEN 0 THEN 'pass.issued' WHEN 1 THEN 'pass.updated' ELSE 'pass.installed' END"
        switch database.engine {
        case .postgres:
            _ = try await database.execute(SQL(unsafeText: """
                INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
                SELECT n, \(types), 'pass.example', 'S' || n, 't' || (n % 10), 'api', '{}' FROM generate_series(1, \(events)) AS n
                """, parameters: []))
        case .sqlite:
            _ = try await database.execute(SQL(unsafeText: """
                WITH RECURSIVE numbers(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM numbers WHERE n < \(events))
                INSERT INTO events (occurred_at, type, pass_type_identifier, serial_number, template, actor, payload)
                SELECT n, \(types), 'pass.example', 'S' || n, 't' || (n % 10), 'api', '{}' FROM numbers
                """, parameters: []))
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
