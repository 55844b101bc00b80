import Foundation
import Storage
import Testing
@testable import WalletStore

/// Device logs are stored verbatim and bounded, on SQLite and PostgreSQL.
@Suite struct DeviceLogStoreTests {
    @Test(arguments: StoreEngine.selected)
    func logsKeepTheNewestMessagesOnly(engine: StoreEngine) async throws {
        let clock = TestClock()
        try await engine.withStore(clock: clock, logCapacity: 5) { store in
            try await store.appendLogs(["one", "two", "'; DROP TABLE device_logs; -- ?"])
            clock.advance(.seconds(1))
            try await store.appendLogs([])
            try await store.appendLogs(["four", "five", "six", "seven"])

            let logs = try await store.recentLogs(limit: 100)
            #expect(logs.map(\.message) == ["seven", "six", "five", "four", "'; DROP TABLE device_logs; -- ?"])
            #expect(logs.first?.receivedAt == Date(timeIntervalSince1970: 1_700_000_001.25))
            #expect(logs.last?.receivedAt == Date(timeIntervalSince1970: 1_700_000_000.25))
            #expect(try await store.recentLogs(limit: 2).map(\.message) == ["seven", "six"])

            // A batch larger than both the capacity and one INSERT keeps exactly its newest messages.
            try await store.appendLogs((1...600).map { "bulk \($0)" })
            #expect(try await store.recentLogs(limit: 100).map(\.message) == (596...600).reversed().map { "bulk \($0)" })
        }
    }
}
