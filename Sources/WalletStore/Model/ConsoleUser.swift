import Foundation
import Storage

/// A named person who signs in to the web console, as stored: the password only as an argon2id hash,
/// a pending invite only as the SHA-256 of its token.
public struct ConsoleUser: Sendable, Hashable, CustomStringConvertible {
    /// `u_` and 16 hex digits: what the audit trail names (`user <id>`).
    public let id: String
    /// Lowercased; the sign-in name.
    public let email: String
    public let name: String
    /// `owner`, `editor`, `support` or `viewer` (WalletCore's `ConsoleRole`).
    public let role: String
    /// The argon2id PHC string; `nil` until the invite is accepted.
    public let passwordHash: String?
    /// When the pending invite stops working; `nil` when none is pending.
    public let inviteExpiresAt: Date?
    public let disabledAt: Date?
    public let createdAt: Date
    public let lastSignInAt: Date?

    /// Never the hash: a description may reach a log.
    public var description: String { "ConsoleUser(\(id), \(role)\(disabledAt == nil ? "" : ", disabled"))" }

    static let columns = "id, email, name, role, password_hash, invite_expires_at, disabled_at, created_at, last_sign_in_at"

    init(row: Row) throws {
        id = try row.string("id")
        email = try row.string("email")
        name = try row.string("name")
        role = try row.string("role")
        passwordHash = try row.optionalString("password_hash")
        inviteExpiresAt = try row.optionalInt64("invite_expires_at").map(Milliseconds.date)
        disabledAt = try row.optionalInt64("disabled_at").map(Milliseconds.date)
        createdAt = Milliseconds.date(try row.int64("created_at"))
        lastSignInAt = try row.optionalInt64("last_sign_in_at").map(Milliseconds.date)
    }
}
