import PassModel
import WalletStore

/// A pass's history: every change written to it, by whom and what it touched.
public extension PassService {
    /// The pass's newest `limit` changes, newest first: time, update tag, source (`api`, `console`,
    /// `hold`, `template vN`…) and the changed keys. Written with each change in its transaction, so
    /// the list is exactly what landed.
    func history(for key: PassKey, limit: Int = 50) async throws -> [PassUpdateRecord] {
        try await store.passUpdates(for: key, limit: limit)
    }
}
