import Foundation
import Storage

/// An API key as the store keeps it: never the key, only its secret's hash.
public struct APIKey: Sendable, Equatable {
    public let id: String
    public let name: String
    /// SHA-256 of the secret, hex.
    public let secretHash: String
    /// Scope names (`passes:read`, …).
    public let scopes: [String]
    /// The templates it may touch; `nil` for all.
    public let templates: [String]?
    public let expiresAt: Date?
    public let createdAt: Date
    public let revokedAt: Date?
    public let lastUsedAt: Date?
    /// The address of its last use (the proxy's, behind a reverse proxy).
    public let lastUsedAddress: String?

    init(row: Row) throws {
        id = try row.string("id")
        name = try row.string("name")
        secretHash = try row.string("secret_hash")
        scopes = try row.string("scopes").split(separator: ",").map(String.init)
        templates = try row.optionalString("templates").map { $0.split(separator: ",").map(String.init) }
        expiresAt = try row.optionalInt64("expires_at").map(Milliseconds.date)
        createdAt = Milliseconds.date(try row.int64("created_at"))
        revokedAt = try row.optionalInt64("revoked_at").map(Milliseconds.date)
        lastUsedAt = try row.optionalInt64("last_used_at").map(Milliseconds.date)
        lastUsedAddress = try row.optionalString("last_used_address")
    }
}
