import Foundation
import PassModel
import Storage

/// API keys: created with their secret's hash, rotated (a new hash), revoked, and their last use. Each
/// change appends its event (`key.created`, `key.rotated`, `key.revoked`) and its audit row, naming
/// `origin`, in its own transaction.
extension WalletStore {
    /// The change's event and audit row, in the change's transaction.
    private func recordKeyChange(_ type: WalletEventType, _ key: APIKey, changes: [String], by origin: WriteOrigin, at now: Int64, in transaction: Transaction) async throws {
        try await appendEvents([keyEvent(type, key, actor: origin.actor)], at: now, in: transaction)
        let action = ["key.created": "key.create", "key.rotated": "key.rotate", "key.revoked": "key.revoke"][type.rawValue] ?? type.rawValue
        try await appendAudit([AuditDraft(action: action, target: "key \(key.id)", changes: changes)], by: origin, at: now, in: transaction)
    }

    private func keyEvent(_ type: WalletEventType, _ key: APIKey, actor: String) -> WalletEventDraft {
        WalletEventDraft(type: type, actor: actor, payload: [
            "key": .string(key.id), "name": .string(key.name), "scopes": .array(key.scopes.map(JSONValue.string)),
            "templates": key.templates.map { .array($0.map(JSONValue.string)) } ?? .null,
        ])
    }

    /// Stores a new key.
    public func createAPIKey(
        id: String, name: String, secretHash: String, scopes: [String], templates: [String]?, expiresAt: Date?, origin: WriteOrigin
    ) async throws -> APIKey {
        let now = clock.nowMilliseconds()
        return try await storing("create an API key") {
            try await database.transaction { transaction in
            let key = try await transaction.query(SQL(
                """
                INSERT INTO api_keys (id, name, secret_hash, scopes, templates, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                RETURNING id, name, secret_hash, scopes, templates, expires_at, created_at, revoked_at, last_used_at, last_used_address
                """,
                .text(id), .text(name), .text(secretHash), .text(scopes.joined(separator: ",")),
                templates.map { .text($0.joined(separator: ",")) } ?? .null, expiresAt.map { .integer(Milliseconds.of($0)) } ?? .null, .integer(now)
            )).map(APIKey.init(row:))[0]
            let changes = ["name", "scopes"] + (templates == nil ? [] : ["templates"]) + (expiresAt == nil ? [] : ["expiresAt"])
            try await self.recordKeyChange(.keyCreated, key, changes: changes, by: origin, at: now, in: transaction)
            return key
            }
        }
    }

    /// The key with `id`, revoked or not, or `nil`.
    public func apiKey(_ id: String) async throws -> APIKey? {
        try await storing("read an API key") {
            try await database.query(SQL(
                """
                SELECT id, name, secret_hash, scopes, templates, expires_at, created_at, revoked_at, last_used_at, last_used_address
                FROM api_keys WHERE id = ?
                """, .text(id))).first.map(APIKey.init(row:))
        }
    }

    /// Every key, newest first.
    public func apiKeys() async throws -> [APIKey] {
        try await storing("list the API keys") {
            try await database.query(SQL(
                """
                SELECT id, name, secret_hash, scopes, templates, expires_at, created_at, revoked_at, last_used_at, last_used_address
                FROM api_keys ORDER BY created_at DESC, id
                """)).map(APIKey.init(row:))
        }
    }

    /// Gives a key that is not revoked a new secret (the old one stops working); `nil` when there is
    /// no such key, or it is revoked.
    public func rotateAPIKey(_ id: String, secretHash: String, origin: WriteOrigin) async throws -> APIKey? {
        let now = clock.nowMilliseconds()
        return try await storing("rotate an API key") {
            try await database.transaction { transaction in
                guard let key = try await transaction.query(SQL(
                    """
                    UPDATE api_keys SET secret_hash = ? WHERE id = ? AND revoked_at IS NULL
                    RETURNING id, name, secret_hash, scopes, templates, expires_at, created_at, revoked_at, last_used_at, last_used_address
                    """, .text(secretHash), .text(id))).first.map(APIKey.init(row:)) else { return nil }
                try await self.recordKeyChange(.keyRotated, key, changes: ["secret"], by: origin, at: now, in: transaction)
                return key
            }
        }
    }

    /// Revokes a key for good; whether it existed and was not revoked yet.
    public func revokeAPIKey(_ id: String, origin: WriteOrigin) async throws -> Bool {
        let now = clock.nowMilliseconds()
        return try await storing("revoke an API key") {
            try await database.transaction { transaction in
                guard let key = try await transaction.query(SQL(
                    """
                    UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL
                    RETURNING id, name, secret_hash, scopes, templates, expires_at, created_at, revoked_at, last_used_at, last_used_address
                    """, .integer(now), .text(id))).first.map(APIKey.init(row:)) else { return false }
                try await self.recordKeyChange(.keyRevoked, key, changes: ["revokedAt"], by: origin, at: now, in: transaction)
                return true
            }
        }
    }

    /// Notes a use of the key, unless one was noted in the last minute (a request is not a write).
    public func noteAPIKeyUse(_ id: String, address: String?) async throws {
        let now = clock.nowMilliseconds()
        try await storing("note an API key's use") {
            _ = try await database.execute(SQL(
                "UPDATE api_keys SET last_used_at = ?, last_used_address = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
                .integer(now), address.map(SQLValue.text) ?? .null, .text(id), .integer(now - 60_000)))
        }
    }
}
