import Foundation
import Storage

/// Web console sessions, in the database so that every instance behind a load balancer accepts
/// them; the console keeps only the cookie, the store only its hash.
extension WalletStore {
    /// Stores a new session created now and valid until `expiresAt`. The hash is the primary key:
    /// storing one that exists throws (a 256-bit random cookie never collides, so it is a mistake).
    @discardableResult
    public func createConsoleSession(tokenHash: String, csrf: String, expiresAt: Date, userID: String? = nil) async throws -> ConsoleSession {
        let now = clock.nowMilliseconds()
        return try await storing("create a console session") {
            let rows = try await database.query(SQL(
                """
                INSERT INTO console_sessions (token_hash, csrf, created_at, expires_at, user_id) VALUES (?, ?, ?, ?, ?)
                RETURNING token_hash, csrf, created_at, expires_at, user_id
                """,
                .text(tokenHash), .text(csrf), .integer(now), .integer(Milliseconds.of(expiresAt)), userID.map(SQLValue.text) ?? .null))
            return try ConsoleSession(row: rows[0])
        }
    }

    /// The session whose cookie hashes to `tokenHash`, or `nil` when there is none, it expired by
    /// `now` (an expired row answers like a missing one until it is pruned), or its user is disabled.
    public func consoleSession(tokenHash: String, now: Date) async throws -> ConsoleSession? {
        try await storing("read a console session") {
            try await database.query(SQL(
                """
                SELECT token_hash, csrf, console_sessions.created_at, expires_at, user_id FROM console_sessions
                LEFT JOIN console_users ON console_users.id = console_sessions.user_id
                WHERE token_hash = ? AND expires_at > ? AND (user_id IS NULL OR console_users.disabled_at IS NULL)
                """,
                .text(tokenHash), .integer(Milliseconds.of(now)))).first.map(ConsoleSession.init(row:))
        }
    }

    /// Signs a session out; returns whether it existed.
    @discardableResult
    public func deleteConsoleSession(tokenHash: String) async throws -> Bool {
        try await storing("delete a console session") {
            try await database.execute(SQL("DELETE FROM console_sessions WHERE token_hash = ?", .text(tokenHash))) > 0
        }
    }

    /// Deletes every session expired by `now` (through the `expires_at` index); returns how many.
    @discardableResult
    public func pruneConsoleSessions(now: Date) async throws -> Int {
        try await storing("prune expired console sessions") {
            try await database.execute(SQL("DELETE FROM console_sessions WHERE expires_at <= ?", .integer(Milliseconds.of(now))))
        }
    }
}
