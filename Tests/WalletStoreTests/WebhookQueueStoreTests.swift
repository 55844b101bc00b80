import Foundation
import Locking
import PassModel
import PasswrightTesting
import Storage
import Testing
@testable import WalletStore

/// Every event a write appends queues one delivery per endpoint that wants it, in the write's own
/// transaction and in event order: on SQLite with a statement of its own, on PostgreSQL inside the
/// statement that inserts the events (one event or a batch, with or without analytics counters).
/// The store rings the webhook worker after a commit that queued any, and only then.
@Suite struct WebhookQueueStoreTests {
    @Test(arguments: StoreEngine.selected, [true, false])
    func eachEventQueuesADeliveryForEachEndpointThatWantsIt(engine: StoreEngine, countsAnalytics: Bool) async throws {
        try await engine.withLocation { configuration in
            let database = try await configuration.open(poolSize: 4)
            try await withCleanup {
                let rings = Locked(0)
                let store = WalletStore(database: database, clock: TestClock(), webhooksQueued: { rings.withLock { $0 += 1 } }, countsAnalytics: countsAnalytics)
                try await store.migrate()
                _ = try await store.createPass(Fixture.pass("before"), origin: .api)
                #expect(rings.withLock { $0 } == 0, "no endpoint, nothing queued, no ring")

                func subscribe(_ id: String, _ types: Set<WalletEventType>?, _ templates: Set<String>?) async throws {
                    _ = try await store.createWebhookEndpoint(NewWebhookEndpoint(
                        id: id, url: "https://hooks.example.test/\(id)", description: id, eventTypes: types, templates: templates, sealedSecret: "sealed"), origin: .api)
                }
                try await subscribe("all", nil, nil)
                try await subscribe("elsewhere", [.passIssued], ["other"])
                try await subscribe("updates", [.passUpdated], ["event"])

                let passes = [try await store.createPass(Fixture.pass("w1"), origin: .api), try await store.createPass(Fixture.pass("w2"), origin: .api)]
                // Two events in one statement.
                let written = try await store.writePasses(passes.map { PassWriteRequest(PassChange(data: #"{"seat":"9Z"}"#), over: $0) })
                #expect(written.written.count == 2)
                _ = try await store.register(deviceLibraryIdentifier: "device-1", pushToken: "aa1", pass: passes[0].key)
                _ = try await store.unregister(deviceLibraryIdentifier: "device-1", pass: passes[0].key)

                let all = try await store.webhookDeliveries(endpoint: "all").reversed()
                #expect(all.map(\.eventType) == [.passIssued, .passIssued, .passUpdated, .passUpdated, .passInstalled, .passRemoved])
                let eventNumbers = all.map { Int64($0.eventID.dropFirst(4)) ?? 0 }
                #expect(eventNumbers == eventNumbers.sorted() && Set(eventNumbers).count == 6, "one delivery an event, queued in event order")
                #expect(all.allSatisfy { $0.state == .pending && $0.attempts == 0 })
                #expect(try await store.webhookDeliveries(endpoint: "elsewhere").isEmpty, "a filter on another template queues nothing")
                #expect(try await store.webhookDeliveries(endpoint: "updates").map(\.eventType) == [.passUpdated, .passUpdated])
                #expect(rings.withLock { $0 } == 5, "a ring after each of the five commits that queued")
            } cleanup: {
                await database.close()
            }
        }
    }
}
