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

    /// An erasure deletes the lines that name the document, not every line whose text happens to
    /// contain its identifier: erasing serial number `7` once wiped every line with a 7 in it.
    @Test(arguments: StoreEngine.selected)
    func anErasureDeletesTheLinesThatNameTheDocumentOnly(engine: StoreEngine) async throws {
        try await engine.withStore { store in
            let naming = [
                "Get pass task (pass type pass.example, serial number 7, if-modified-since (null)) failed",
                "https://passes.example/v1/passes/pass.example/7",
                "7",
            ]
            let sparing = ["serial number 17 failed", "token 7a1 rejected", "at 2027-01-07T10:00:00Z", "unrelated"]
            try await store.appendLogs(naming + sparing)
            try await store.database.transaction { try await WalletStore.deleteDeviceLogs(naming: "7", in: $0) }
            #expect(Set(try await store.recentLogs(limit: 100).map(\.message)) == Set(sparing))
        }
    }

    @Test func aMentionIsTheIdentifierBetweenNonAlphanumerics() {
        #expect(DeviceLogMention.names("ABC", in: "ABC"))
        #expect(DeviceLogMention.names("ABC", in: "serial ABC-2"))  // taken: it may be the pass itself
        #expect(DeviceLogMention.names("ABC", in: "xABC ABC."))  // the second occurrence
        #expect(!DeviceLogMention.names("ABC", in: "xABC ABCD"))
        #expect(!DeviceLogMention.names("7", in: "2027 17 70"))
        #expect(DeviceLogMention.names("Zoë", in: "for Zoë."))
        #expect(!DeviceLogMention.names("Zoë", in: "for Zoëlla"))
        #expect(!DeviceLogMention.names("", in: "anything"))
    }
}
