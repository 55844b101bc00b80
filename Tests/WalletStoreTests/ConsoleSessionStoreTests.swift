import Foundation
import Storage
import Testing
@testable import WalletStore

/// Web console sessions live in the store, found by their cookie's hash, on SQLite and PostgreSQL.
@Suite struct ConsoleSessionStoreTests {
    static let hash = String(repeating: "ab", count: 32)

    @Test(arguments: StoreEngine.selected)
    func aSessionIsFoundUntilItExpiresOrIsDeleted(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let expiry = clock.now().addingTimeInterval(8 * 3600)
            let created = try await store.createConsoleSession(tokenHash: Self.hash, csrf: "csrf-1", expiresAt: expiry)
            #expect(created.createdAt == clock.now())
            #expect(created.expiresAt == expiry)

            let found = try #require(try await store.consoleSession(tokenHash: Self.hash, now: clock.now()))
            #expect(found == created)
            #expect(found.csrf == "csrf-1")
            #expect(!found.description.contains(Self.hash) && !found.description.contains("csrf-1"), "no secret in a log line")
            #expect(try await store.consoleSession(tokenHash: String(repeating: "cd", count: 32), now: clock.now()) == nil)

            // One millisecond before the expiry it is accepted; at the expiry it is not.
            #expect(try await store.consoleSession(tokenHash: Self.hash, now: expiry.addingTimeInterval(-0.001)) != nil)
            #expect(try await store.consoleSession(tokenHash: Self.hash, now: expiry) == nil)

            // The same hash twice is a mistake, not a silent replacement.
            await #expect(throws: WalletStoreError.self) {
                try await store.createConsoleSession(tokenHash: Self.hash, csrf: "csrf-2", expiresAt: expiry)
            }
            #expect(try await store.deleteConsoleSession(tokenHash: Self.hash))
            #expect(try await store.deleteConsoleSession(tokenHash: Self.hash) == false)
            #expect(try await store.consoleSession(tokenHash: Self.hash, now: clock.now()) == nil)
        }
    }

    @Test(arguments: StoreEngine.selected)
    func pruningDeletesExactlyTheExpiredSessions(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock) { store in
            let now = clock.now()
            for (index, hours) in [-2.0, -1, 1, 2].enumerated() {
                try await store.createConsoleSession(
                    tokenHash: "hash-\(index)", csrf: "csrf-\(index)", expiresAt: now.addingTimeInterval(hours * 3600))
            }
            #expect(try await store.pruneConsoleSessions(now: now) == 2)
            #expect(try await store.pruneConsoleSessions(now: now) == 0)
            for index in 0..<2 { #expect(try await store.deleteConsoleSession(tokenHash: "hash-\(index)") == false, "pruned") }
            for index in 2..<4 { #expect(try await store.consoleSession(tokenHash: "hash-\(index)", now: now)?.csrf == "csrf-\(index)") }
            #expect(try await store.pruneConsoleSessions(now: now.addingTimeInterval(3 * 3600)) == 2)
        }
    }
}
