import Foundation
import Storage

/// A signed-in web console session, as stored: found by the SHA-256 of its cookie value, never by
/// the value itself, so a copy of the table signs nobody in.
public struct ConsoleSession: Sendable, Hashable, CustomStringConvertible {
    /// SHA-256 (hex) of the session cookie's value: the key it is looked up by.
    public let tokenHash: String
    /// The session's CSRF token: every console form carries it and every POST must match it.
    public let csrf: String
    /// When the session was signed in.
    public let createdAt: Date
    /// When it stops being accepted; expired rows are ignored, then pruned.
    public let expiresAt: Date
    /// The user signed in; `nil` for a session signed in with the admin token (the owner).
    public let userID: String?

    /// The times only: the hash and the CSRF token must not reach a log.
    public var description: String { "ConsoleSession(created: \(createdAt), expires: \(expiresAt))" }

    init(row: Row) throws {
        tokenHash = try row.string("token_hash")
        csrf = try row.string("csrf")
        createdAt = Milliseconds.date(try row.int64("created_at"))
        expiresAt = Milliseconds.date(try row.int64("expires_at"))
        userID = try row.optionalString("user_id")
    }
}
