import Foundation
import Locking
import Signing
import WalletStore

/// API keys: created (the key shown once), listed, rotated, revoked, and checked on every admin
/// request. A key's row is cached for a couple of seconds so a busy client costs no read per request;
/// a revocation or rotation therefore reaches every instance within ``cacheLifetime``.
public final class APIKeyService: Sendable {
    let store: WalletStore
    private let cache = Locked<[String: (key: APIKey, read: ContinuousClock.Instant)]>([:])
    /// How long a key's row is reused before it is read again.
    static let cacheLifetime = Duration.seconds(2)
    /// When this instance last noted each key's use: the cached row does not show it, and without
    /// this every request in the cache's two seconds would send the (then no-op) update again.
    private let noted = Locked<[String: Date]>([:])

    init(store: WalletStore) {
        self.store = store
    }

    /// What creating or rotating a key answers: the key's details and the key itself, shown this once.
    public struct Issued: Sendable {
        public let key: APIKey
        public let token: String
    }

    /// A new key named `name` with `scopes`, limited to `templates` (`nil`: all), expiring at `expiresAt`.
    public func create(name: String, scopes: [String], templates: [String]?, expiresAt: Date?, origin: APICaller.Origin) async throws -> Issued {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else { throw ServiceError.invalid("name must be 1 to 100 characters") }
        let scopes = try Self.scopes(scopes)
        if let templates, templates.isEmpty || templates.contains(where: { $0.isEmpty || $0.contains(",") }) {
            throw ServiceError.invalid("templates lists template names (leave it out for every template)")
        }
        if let expiresAt, expiresAt <= store.clock.now() { throw ServiceError.invalid("expiresAt must be in the future") }
        let token = APIKeyToken.generate()
        let key = try await store.createAPIKey(
            id: token.id, name: name, secretHash: token.hash, scopes: scopes.map(\.rawValue), templates: templates?.sorted(), expiresAt: expiresAt, origin: origin)
        return Issued(key: key, token: token.text)
    }

    /// Every key, revoked ones included, newest first.
    public func list() async throws -> [APIKey] {
        try await store.apiKeys()
    }

    public func key(_ id: String) async throws -> APIKey? {
        try await store.apiKey(id)
    }

    /// A new secret for the key; the old one stops working (within ``cacheLifetime`` everywhere).
    public func rotate(_ id: String, origin: APICaller.Origin) async throws -> Issued? {
        guard let current = try await store.apiKey(id), current.revokedAt == nil else { return nil }
        let token = APIKeyToken(reusing: current.id)
        guard let key = try await store.rotateAPIKey(id, secretHash: token.hash, origin: origin) else { return nil }
        cache.withLock { _ = $0.removeValue(forKey: id) }
        return Issued(key: key, token: token.text)
    }

    /// Revokes the key for good; whether there was such a key still in use.
    public func revoke(_ id: String, origin: APICaller.Origin) async throws -> Bool {
        defer { cache.withLock { _ = $0.removeValue(forKey: id) } }
        return try await store.revokeAPIKey(id, origin: origin)
    }

    /// The caller `text` authenticates, or `nil` for a malformed, unknown, wrong, revoked or expired
    /// key. The secret's hash is compared in constant time; a use is noted at most once a minute.
    public func authenticate(_ text: String, address: String?) async throws -> APICaller? {
        guard let token = APIKeyToken(text), let key = try await cachedKey(token.id) else { return nil }
        guard constantTimeEquals(token.hash, key.secretHash), key.revokedAt == nil else { return nil }
        if let expires = key.expiresAt, expires <= store.clock.now() { return nil }
        let now = store.clock.now()
        let due = noted.withLock { noted in
            let last = max(key.lastUsedAt ?? .distantPast, noted[key.id] ?? .distantPast)
            guard now.timeIntervalSince(last) >= 60 else { return false }
            noted[key.id] = now
            return true
        }
        if due { try await store.noteAPIKeyUse(key.id, address: address) }
        return APICaller(keyID: key.id, name: key.name, scopes: Set(key.scopes.compactMap(APIScope.init(rawValue:))), templates: key.templates.map(Set.init))
    }

    private func cachedKey(_ id: String) async throws -> APIKey? {
        let now = ContinuousClock.now
        if let cached = cache.withLock({ $0[id] }), now - cached.read < Self.cacheLifetime { return cached.key }
        guard let key = try await store.apiKey(id) else { return nil }
        cache.withLock { $0[id] = (key, now) }
        return key
    }

    /// The scopes named, checked: at least one, each known.
    static func scopes(_ names: [String]) throws -> [APIScope] {
        guard !names.isEmpty else { throw ServiceError.invalid("scopes lists at least one of \(APIScope.allCases.map(\.rawValue).joined(separator: ", "))") }
        return try Set(names).map { name in
            guard let scope = APIScope(rawValue: name) else {
                throw ServiceError.invalid("unknown scope '\(name)'; the scopes are \(APIScope.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return scope
        }.sorted()
    }
}
