import Foundation
import Locking
import PasswrightTesting
@testable import WalletCore
@testable import WalletHTTP
import WalletStore
import Storage
import Testing

/// The console's failed-sign-in limit: per address and per account, counted in the database, so two
/// instances behind one load balancer allow five failures a minute between them, not five each; and
/// the table keeps neither an address nor an e-mail, nor anything older than the limit's minute.
@Suite struct ConsoleSignInLimitTests {
    static let token = "right-token-0123456789"

    @Test(arguments: TestEngine.selected)
    func failuresAreCountedAcrossInstancesPerAddress(engine: TestEngine) async throws {
        try await engine.withDatabase { database in
            let store = WalletStore(database: database)
            try await store.migrate()
            let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
            // Two instances: each its own ConsoleAuth (its own memory), one database.
            let instances = (0..<2).map { _ in
                ConsoleAuth(sessions: ConsoleSessions(store: store), users: ConsoleUsers(store: store), adminToken: Self.token, secureCookies: false, now: { clock.withLock { $0 } })
            }
            for attempt in 0..<ConsoleAuth.attemptsPerMinute {
                guard case .refused = try await instances[attempt % 2].signIn(token: "wrong", from: "192.0.2.1") else { Issue.record("expected refused"); return }
            }
            for instance in instances {
                guard case .tooManyAttempts = try await instance.signIn(token: Self.token, from: "192.0.2.1") else {
                    Issue.record("the sixth attempt within a minute, on either instance, is refused as too many"); return
                }
            }
            guard case .signedIn = try await instances[1].signIn(token: Self.token, from: "192.0.2.2") else {
                Issue.record("another address is not limited"); return
            }

            let rows = try await database.query(SQL("SELECT key_hash FROM sign_in_failures"))
            #expect(rows.count == ConsoleAuth.attemptsPerMinute)
            #expect(try rows.allSatisfy { try $0.string("key_hash").count == 64 && !$0.string("key_hash").contains("192.0.2") }, "hashes only")

            // A minute later the address may try again; the next failure forgets the old ones.
            clock.withLock { $0 += 61 }
            guard case .signedIn = try await instances[0].signIn(token: Self.token, from: "192.0.2.1") else {
                Issue.record("the limit lasts a minute"); return
            }
            _ = try await instances[0].signIn(token: "wrong", from: "198.51.100.7")
            #expect(try await database.query(SQL("SELECT key_hash FROM sign_in_failures")).count == 1, "only the last minute's failures are kept")
        }
    }
}
