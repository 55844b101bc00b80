/// What `GET /api/v1/order-templates` answers: every stored order template, by name, with its
/// current version and whether this server can sign its orders.
public struct OrderTemplateList: WireValue {
    public static let schemaName = "OrderTemplateList"

    /// One order template. Absent members are left out, not written as `null`.
    public struct Entry: Codable, Sendable, Equatable {
        /// The template's name.
        public var name: String
        /// Whether orders of its current version can be made and signed here.
        public var status: TemplateStatus
        /// The current version, which new orders are made from.
        public var version: Int64
        /// The order type every order of it has.
        public var orderTypeIdentifier: String
        /// Why an unavailable template's orders cannot be signed, or why its folder was not imported.
        public var reason: String?

        /// Creates the value from its members.
        public init(name: String, status: TemplateStatus, version: Int64, orderTypeIdentifier: String, reason: String? = nil) {
            self.name = name
            self.status = status
            self.version = version
            self.orderTypeIdentifier = orderTypeIdentifier
            self.reason = reason
        }
    }

    /// Sorted by name.
    public var templates: [Entry]

    /// Creates the value from its members.
    public init(templates: [Entry]) {
        self.templates = templates
    }
}
