import Foundation
import WalletStore

/// An API key as the admin API shows it: never its secret (shown once, at creation and rotation).
public struct APIKeyDetails: WireValue {
    public static let schemaName = "APIKey"

    public var id: String
    public var name: String
    public var scopes: [String]
    /// The templates it may touch; `null` for all.
    @NullWhenAbsent public var templates: [String]?
    /// `active`, `expired` or `revoked`.
    public var state: String
    @NullWhenAbsent public var expiresAt: Date?
    public var createdAt: Date
    @NullWhenAbsent public var revokedAt: Date?
    /// Its last use (kept to the minute) and from which address.
    @NullWhenAbsent public var lastUsedAt: Date?
    @NullWhenAbsent public var lastUsedAddress: String?

    public init(
        id: String, name: String, scopes: [String], templates: [String]?, state: String, expiresAt: Date?, createdAt: Date, revokedAt: Date?,
        lastUsedAt: Date?, lastUsedAddress: String?
    ) {
        (self.id, self.name, self.scopes, self.templates, self.state) = (id, name, scopes, templates, state)
        (self.expiresAt, self.createdAt, self.revokedAt, self.lastUsedAt, self.lastUsedAddress) = (expiresAt, createdAt, revokedAt, lastUsedAt, lastUsedAddress)
    }

    public init(_ key: APIKey, now: Date) {
        let state = key.revokedAt != nil ? "revoked" : key.expiresAt.map { $0 <= now } == true ? "expired" : "active"
        self.init(
            id: key.id, name: key.name, scopes: key.scopes, templates: key.templates, state: state, expiresAt: key.expiresAt,
            createdAt: key.createdAt, revokedAt: key.revokedAt, lastUsedAt: key.lastUsedAt, lastUsedAddress: key.lastUsedAddress)
    }
}

/// `GET /api/v1/keys`: every key, newest first.
public struct APIKeyList: WireValue {
    public static let schemaName = "APIKeyList"
    public var keys: [APIKeyDetails]

    public init(keys: [APIKeyDetails]) {
        self.keys = keys
    }
}

/// What creating or rotating a key answers: the key's details and the key itself, shown this once.
public struct APIKeyCreated: WireValue {
    public static let schemaName = "APIKeyCreated"
    public var key: APIKeyDetails
    /// `pw_…`: send it as `Authorization: Bearer <key>`. Only its hash is kept.
    public var secret: String

    public init(key: APIKeyDetails, secret: String) {
        self.key = key
        self.secret = secret
    }
}
