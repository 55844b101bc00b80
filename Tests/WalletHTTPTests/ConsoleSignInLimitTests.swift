import Foundation
import Locking
import PasswrightTesting
@testable import WalletCore
@testable import WalletHTTP
import WalletStore
import Testing

/// The console's failed-sign-in limit: per address, and bounded in memory whatever the number of
/// addresses trying.
@Suite struct ConsoleSignInLimitTests {
    @Test func failuresAreLimitedPerAddressAndTheirMemoryIsBounded() async throws {
        try await TestEngine.sqlite.withDatabase { database in
            let store = WalletStore(database: database)
            try await store.migrate()
            let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
            let auth = ConsoleAuth(sessions: ConsoleSessions(store: store), users: ConsoleUsers(store: store), adminToken: "right-token-0123456789", secureCookies: false, now: { clock.withLock { $0 } })

            for _ in 0..<ConsoleAuth.attemptsPerMinute {
                guard case .refused = try await auth.signIn(token: "wrong", from: "192.0.2.1") else { Issue.record("expected refused"); return }
            }
            guard case .tooManyAttempts = try await auth.signIn(token: "right-token-0123456789", from: "192.0.2.1") else {
                Issue.record("the sixth attempt within a minute should be refused as too many"); return
            }
            guard case .signedIn = try await auth.signIn(token: "right-token-0123456789", from: "192.0.2.2") else {
                Issue.record("another address is not limited"); return
            }

            // Many addresses failing once each: memory stays at the bound.
            for index in 0..<(ConsoleAuth.rememberedAddresses + 500) {
                _ = try await auth.signIn(token: "wrong", from: "2001:db8::\(String(index, radix: 16))")
            }
            #expect(auth.rememberedAddressCount <= ConsoleAuth.rememberedAddresses)

            // A minute later the first address may try again, and its old failures are forgotten.
            clock.withLock { $0 += 61 }
            guard case .signedIn = try await auth.signIn(token: "right-token-0123456789", from: "192.0.2.1") else {
                Issue.record("the limit lasts a minute"); return
            }
        }
    }
}
