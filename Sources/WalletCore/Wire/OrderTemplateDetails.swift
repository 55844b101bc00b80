import Foundation

/// What `GET /api/v1/order-templates/{template}` answers: the current version, which new orders
/// are made from, whether its orders can be signed here, and every stored version.
public struct OrderTemplateDetails: WireValue {
    public static let schemaName = "OrderTemplateDetails"

    /// One stored version. (Not ``TemplateDetails/Version``: an order template has no rollback, and
    /// what its versions record is who stored them.)
    public struct Version: Codable, Sendable, Equatable {
        /// The version number, from 1, in the order stored.
        public var version: Int64
        /// SHA-256 over the sorted file paths and bytes.
        public var digest: String
        /// Who stored it: an API key or the admin API, the console, or the folder it was imported from.
        public var storedBy: String
        /// When it was stored.
        public var storedAt: Date
        /// The orders made from it (erased ones included: Wallet still fetches them).
        public var orders: Int

        /// Creates the value from its members.
        public init(version: Int64, digest: String, storedBy: String, storedAt: Date, orders: Int) {
            self.version = version
            self.digest = digest
            self.storedBy = storedBy
            self.storedAt = storedAt
            self.orders = orders
        }
    }

    /// The template's name.
    public var name: String
    /// The version new orders are made from.
    public var currentVersion: Int64
    /// The order type every order of it has.
    public var orderTypeIdentifier: String
    /// Whether orders of the current version can be made and signed here.
    public var status: TemplateStatus
    /// Why not, or why its folder was not imported; absent otherwise.
    public var reason: String?
    /// Newest first.
    public var versions: [Version]

    /// Creates the value from its members.
    public init(
        name: String, currentVersion: Int64, orderTypeIdentifier: String, status: TemplateStatus, reason: String? = nil, versions: [Version]
    ) {
        self.name = name
        self.currentVersion = currentVersion
        self.orderTypeIdentifier = orderTypeIdentifier
        self.status = status
        self.reason = reason
        self.versions = versions
    }
}
