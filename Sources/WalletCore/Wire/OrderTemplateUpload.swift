/// What `PUT /api/v1/order-templates/{template}` answers (and `passwright templates push` reports
/// for an order template folder): the version current after the upload.
public struct OrderTemplateUpload: WireValue {
    public static let schemaName = "OrderTemplateUpload"

    /// The template's name.
    public var name: String
    /// The current version after the upload (the stored one when unchanged); new orders are made from it.
    public var version: Int64
    /// SHA-256 over the sorted file paths and bytes.
    public var digest: String
    /// `false` when the files equal the current version: nothing was stored.
    public var changed: Bool
    /// The order type every order of it has.
    public var orderTypeIdentifier: String

    /// Creates the value from its members.
    public init(name: String, version: Int64, digest: String, changed: Bool, orderTypeIdentifier: String) {
        self.name = name
        self.version = version
        self.digest = digest
        self.changed = changed
        self.orderTypeIdentifier = orderTypeIdentifier
    }
}
