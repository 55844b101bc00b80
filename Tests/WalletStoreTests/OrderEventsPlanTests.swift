import Foundation
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// An order's export reads its events through `events_order_document`, not every order event of its
/// template: among 50,000 events of one template (order events of 1,000 orders and pass events), the
/// plan is a seek of that index on each engine, and the answer is exactly the order's events, oldest
/// first. Asserted on each engine's plan, not on a time.
@Suite struct OrderEventsPlanTests {
    static let events = 50_000

    @Test(arguments: StoreEngine.selected)
    func anOrdersEventsAreASeekOfItsIdentifiers(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            try await Self.seed(store.database)
            let key = OrderKey(orderTypeIdentifier: "order.example", orderIdentifier: "O-7")
            let query = WalletStore.orderEventsQuery(key, engine: store.database.engine, limit: 100)
            if store.database.engine == .postgres { _ = try await store.database.execute(SQL("ANALYZE events")) }
            let plan = try await store.database.queryPlan(of: query)
            switch store.database.engine {
            case .sqlite:
                #expect(plan.lines.contains { $0.contains("USING INDEX events_order_document") }, "\(plan)")
            case .postgres:
                #expect(plan.lines.contains { $0.contains("events_order_document") && $0.contains("Index") }, "\(plan)")
                #expect(!plan.lines.contains { $0.contains("Seq Scan") }, "\(plan)")
            }
            // Every 1,000th order event is O-7's (1, 1001, …); O-70, O-700 and the pass events are not.
            let found = try await store.events(for: key)
            #expect(found.count == Self.events / 2 / 1_000, "\(found.count)")
            #expect(found.allSatisfy { $0.payload["orderIdentifier"] == .string("O-7") && $0.type.rawValue.hasPrefix("order.") })
            #expect(found.map(\.id) == found.map(\.id).sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }, "oldest first")
        }
    }

    /// Half order events naming orders O-0 … O-999 in turn, half pass events, one template, written
    /// by the engine itself.
    static func seed(_ database: any Database) async throws {
        let row = """
            n, CASE WHEN n % 2 = 0 THEN 'order.updated' ELSE 'pass.updated' END, 'shop', 'api',
            CASE WHEN n % 2 = 0 THEN '{"orderTypeIdentifier":"order.example","orderIdentifier":"O-' || ((n / 2) % 1000) || '"}' ELSE '{}' END
            """
        switch database.engine {
        case .postgres:
            _ = try await database.execute(SQL(unsafeText: """
                INSERT INTO events (occurred_at, type, template, actor, payload) SELECT \(row) FROM generate_series(1, \(events)) AS n
                """, parameters: []))
        case .sqlite:
            _ = try await database.execute(SQL(unsafeText: """
                WITH RECURSIVE numbers(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM numbers WHERE n < \(events))
                INSERT INTO events (occurred_at, type, template, actor, payload) SELECT \(row) FROM numbers
                """, parameters: []))
        }
    }
}
