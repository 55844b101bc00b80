import Foundation
import Signing
import WalletStore

/// The web console's signed-in sessions and failed sign-ins, kept in the store so that every
/// instance accepts the same sessions and applies one sign-in limit: the console (in `WalletHTTP`)
/// handles cookies and comes here for the rest, so it never holds the store. A session is stored under the SHA-256 of its cookie value, never the value,
/// so a copy of the database signs nobody in.
public struct ConsoleSessions: Sendable {
    let store: WalletStore

    /// A signed-in session, as the console needs it.
    public struct Session: Sendable, Hashable {
        /// The session's CSRF token: every console form carries it and every POST must match it.
        public let csrf: String
        /// Who signed in; `nil` for the admin token (the owner).
        public let user: ConsoleUser?

        /// What the session may do: the user's role, or the owner's for the admin token.
        public var role: ConsoleRole { user.map(ConsoleUsers.role(of:)) ?? .owner }
    }

    /// The session whose cookie value is `cookie`, or `nil` when there is none, it expired by `now`
    /// or its user is disabled.
    public func session(cookie: String, now: Date) async throws -> Session? {
        guard let session = try await store.consoleSession(tokenHash: Self.hash(cookie), now: now) else { return nil }
        guard let id = session.userID else { return Session(csrf: session.csrf, user: nil) }
        guard let user = try await store.consoleUser(id: id), user.disabledAt == nil else { return nil }
        return Session(csrf: session.csrf, user: user)
    }

    /// Stores a new session for the cookie value `cookie` of `user` (`nil`: the admin token), valid
    /// until `expiresAt`, with a fresh CSRF token; sessions expired by `now` are pruned first so the
    /// table does not grow.
    public func create(cookie: String, user: ConsoleUser?, now: Date, expiresAt: Date) async throws {
        _ = try await store.pruneConsoleSessions(now: now)
        _ = try await store.createConsoleSession(tokenHash: Self.hash(cookie), csrf: Self.randomHex(32), expiresAt: expiresAt, userID: user?.id)
    }

    /// Signs the session of the cookie value `cookie` out.
    public func delete(cookie: String) async throws {
        _ = try await store.deleteConsoleSession(tokenHash: Self.hash(cookie))
    }

    /// The most failed sign-ins any of `keys` (an address, `account <e-mail>`) had in the `window`
    /// before `now`, counted across every instance sharing the database.
    public func failedSignIns(_ keys: [String], window: TimeInterval, now: Date) async throws -> Int {
        try await store.signInFailures(keyHashes: keys.map(Self.hash), since: now.addingTimeInterval(-window))
    }

    /// Counts a failed sign-in at `now` against each of `keys`; failures older than `window` go.
    /// Only the keys' hashes are stored: no address or e-mail sits in the table.
    public func recordFailedSignIn(_ keys: [String], window: TimeInterval, now: Date) async throws {
        try await store.recordSignInFailure(keyHashes: keys.map(Self.hash), at: now, forgetBefore: now.addingTimeInterval(-window))
    }

    /// The author of a write made in the console by `user` (`nil`: signed in with the admin token)
    /// from `address`.
    public static func origin(of user: ConsoleUser?, address: String?) -> APICaller.Origin {
        user.map { ConsoleUsers.origin(of: $0, address: address) } ?? WriteOrigin(actor: PassUpdateRecord.console, source: .console, address: address)
    }

    private static func hash(_ text: String) -> String { Digest.sha256Hex(Data(text.utf8)) }

    /// `bytes` random bytes as hex: session cookies, CSRF and pre-session tokens.
    public static func randomHex(_ bytes: Int) -> String { Digest.hex(SecureRandom.bytes(bytes)) }
}
