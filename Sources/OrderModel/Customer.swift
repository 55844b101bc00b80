import PassModel

/// Who placed the order (`customer`). Every key is optional; Wallet shows what is given.
public struct Customer: Sendable, Hashable {
    /// Contact e-mail.
    public var emailAddress: String?
    /// Family name.
    public var familyName: String?
    /// Given name.
    public var givenName: String?
    /// Company, for business orders.
    public var organizationName: String?
    /// Contact phone number.
    public var phoneNumber: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// An empty customer; set the keys by assignment.
    public init() {}
}

extension Customer: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("emailAddress", { $0.emailAddress }, { $0.emailAddress = $1 }),
        Property("familyName", { $0.familyName }, { $0.familyName = $1 }),
        Property("givenName", { $0.givenName }, { $0.givenName = $1 }),
        Property("organizationName", { $0.organizationName }, { $0.organizationName = $1 }),
        Property("phoneNumber", { $0.phoneNumber }, { $0.phoneNumber = $1 }),
    ])
}
