import PassModel
import Storage

/// Everything the Wallet store reports, each case naming the pass or the operation.
///
/// Descriptions never contain an authentication token or a push token: they end up in logs and in
/// HTTP problem bodies.
public enum WalletStoreError: Error, Sendable, CustomStringConvertible {
    /// A pass with this type identifier and serial number already exists (HTTP 409 on create).
    case passExists(PassKey)
    /// No pass has this type identifier and serial number (HTTP 404).
    case passNotFound(PassKey)
    /// An order with this type and identifier exists already (HTTP 409).
    case orderExists(OrderKey)
    /// No order has this type and identifier (HTTP 404).
    case orderNotFound(OrderKey)
    /// A console user with this e-mail address exists already (HTTP 409 / the console's form error).
    case consoleUserExists(String)
    /// The pass's holder data was erased: it stays as a voided tombstone and takes no change (HTTP 409).
    case passErased(PassKey)
    /// The pass changed under the update `attempts` times in a row: each time another writer's change
    /// landed between reading the pass and writing it (HTTP 503 with `Retry-After`: the pass is busy,
    /// not wrong; asking again shortly succeeds).
    case updateConflict(PassKey, attempts: Int)
    /// No template of this name is stored (HTTP 404).
    case templateNotFound(String)
    /// A pass (or a bulk batch of them) was built from `version` of `template`, and a newer version
    /// became current before it was stored: nothing was written. Issuers build it again from the
    /// new version (a roll-out that has begun would not move a pass stored after its pages went
    /// by); after repeated tries, HTTP 503 with `Retry-After`.
    case templateVersionSuperseded(template: String, version: Int64)
    /// No bulk job has this id (HTTP 404).
    case bulkJobNotFound(String)
    /// The lease on a bulk job's record passed to another instance before this one settled it: it
    /// wrote nothing, and the other instance settles the record.
    case leaseLost(String)
    /// The database failed while the store was doing `operation`; `error` says how, without values.
    /// Its ``StorageError/kind`` decides the HTTP status: 503 with `Retry-After` while the database is
    /// unavailable, 507 while it is full (nothing was written either way), 500 for anything else.
    case database(operation: String, error: StorageError)

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .passExists(let key):
            "The pass \(key) already exists; update it instead of creating it again"
        case .passNotFound(let key):
            "No pass \(key) is stored; create it first or check the pass type identifier and serial number"
        case .orderExists(let key):
            "The order \(key) already exists; change it with PATCH /api/v1/orders/\(key.orderTypeIdentifier)/\(key.orderIdentifier) instead"
        case .orderNotFound(let key):
            "No order \(key) is stored; create it first or check the order type identifier and order identifier"
        case .consoleUserExists:
            "A console user with this e-mail address exists already; give them another role or enable them instead"
        case .passErased(let key):
            "The pass \(key) was erased (its holder's data removed); it takes no change: issue a new pass instead"
        case .updateConflict(let key, let attempts):
            "The pass \(key) changed under the update \(attempts) times in a row (other writers got there first); nothing of this update was written to it, try again"
        case .templateNotFound(let name):
            "No template '\(name)' is stored; upload it with PUT /api/v1/templates/\(name) or `passwright templates push`"
        case .templateVersionSuperseded(let template, let version):
            "Version \(version) of the template '\(template)' stopped being current while the pass was being issued from it (a newer version was published); nothing was written, try again"
        case .bulkJobNotFound(let id):
            "No bulk job \(id) is stored; it may have been pruned after the retention period"
        case .leaseLost(let what):
            "The lease on \(what) lapsed and another instance took it over; nothing was written"
        case .database(let operation, let error):
            "The Wallet store cannot \(operation): \(error)"
        }
    }
}

/// Runs `body`, turning a ``StorageError`` into ``WalletStoreError/database(operation:error:)`` so the
/// caller learns which store operation failed; every other error (a caller's closure) passes unchanged.
func storing<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as StorageError {
        throw WalletStoreError.database(operation: operation, error: error)
    }
}
