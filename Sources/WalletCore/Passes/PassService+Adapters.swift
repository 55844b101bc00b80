import PassModel
import Storage
import WalletStore

/// What the adapters in `WalletHTTP` name when they call ``PassService``, given in WalletCore's
/// terms so that they never import the store (style rule 14).
extension PassService {
    /// One page of the passes matching `text` (a serial number prefix or a value in the record),
    /// optionally within `template`, after the pass `after`; see ``search(_:)``.
    public func search(text: String?, template: String?, after: PassKey?, limit: Int) async throws -> PassSearchPage {
        try await search(PassSearch(text: text, template: template, after: after, limit: limit))
    }
}

/// A store error an adapter answers in its own way (HTTP: 409, 404, 503 with `Retry-After`, 507),
/// read from any error so that the adapter needs no store or storage type to recognise it.
public enum PassFailure: Sendable {
    /// A pass with this key already exists.
    case exists(PassKey)
    /// The pass was erased and takes no change.
    case erased(PassKey)
    /// No pass has this key.
    case notFound(PassKey)
    /// The pass kept changing under the update, or its template under the issue; `detail` says so.
    /// A retry soon works.
    case busy(detail: String)
    /// The database does not answer now (down, restarting, out of connections): nothing was written,
    /// the same request later may succeed. `logDetail` is for the log only (it names the server).
    case databaseUnavailable(logDetail: String)
    /// The database or its volume is full: `detail` names it and what to do, `location` is its file or
    /// server.
    case databaseFull(detail: String, location: String?)

    /// The failure `error` is, or `nil` when it is none of these.
    public init?(_ error: any Error) {
        switch error {
        case WalletStoreError.passExists(let key): self = .exists(key)
        case WalletStoreError.passNotFound(let key): self = .notFound(key)
        case WalletStoreError.passErased(let key): self = .erased(key)
        case WalletStoreError.updateConflict, WalletStoreError.templateVersionSuperseded: self = .busy(detail: "\(error)")
        case WalletStoreError.database(_, let storage): self.init(storage: storage)
        case let storage as StorageError: self.init(storage: storage)
        default: return nil
        }
    }

    private init?(storage: StorageError) {
        switch storage.kind {
        case .full:
            if case .full(_, let location, _, _) = storage {
                self = .databaseFull(detail: "\(storage)", location: location)
            } else {
                self = .databaseFull(detail: "\(storage)", location: nil)
            }
        case .unavailable: self = .databaseUnavailable(logDetail: "\(storage)")
        case .other: return nil
        }
    }
}
