import Foundation
import PassModel
import Signing
import WalletStore

/// Reading passes for the routes, and the token check of the Wallet endpoints.
public extension PassService {
    /// The pass a device's `ApplePass` token opened: what the Wallet routes' auth hands their handlers.
    typealias AuthorizedPass = StoredPass

    /// The pass with `key`, or `nil` (HTTP 404 for the admin API and download links).
    func pass(_ key: PassKey) async throws -> StoredPass? {
        try await store.pass(key)
    }

    /// The pass with `key` if `token` is its `authenticationToken`; `nil` answers 401.
    ///
    /// The token is compared in constant time, and compared even when the pass is missing, so a wrong
    /// token and an unknown serial number take the same time and look the same: the endpoint does
    /// not tell an attacker which serial numbers exist.
    func authorizedPass(_ key: PassKey, token: String?) async throws -> StoredPass? {
        let pass = try await store.pass(key)
        let matches = constantTimeEquals(token ?? "", pass?.authenticationToken ?? "\u{0}missing")
        guard let pass, token != nil, matches else { return nil }
        return pass
    }

    /// How many devices are registered for the pass.
    func registrationCount(for key: PassKey) async throws -> Int {
        try await store.registrationCount(for: key)
    }
}
