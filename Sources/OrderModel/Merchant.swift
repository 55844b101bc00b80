import PassModel

/// Who sold the order (`merchant`, Apple's "Merchant"): Wallet shows its name and logo on the order.
public struct Merchant: Sendable, Hashable {
    /// The localized merchant name shown to the user.
    public var displayName: String
    /// The Apple Merchant Identifier (from the developer portal); not the team ID.
    public var merchantIdentifier: String
    /// The merchant's website or landing page.
    public var url: OrderURL
    /// The logo image file in the package.
    public var logo: BundleFilePath?
    /// The merchant's contact address.
    public var address: Address?
    /// An Apple Messages for Business link.
    public var businessChatURL: OrderURL?
    /// A contact page.
    public var contactURL: OrderURL?
    /// Contact e-mail.
    public var emailAddress: String?
    /// Contact phone number.
    public var phoneNumber: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a merchant with the required keys; set the rest by assignment.
    public init(displayName: String, merchantIdentifier: String, url: OrderURL) {
        self.displayName = displayName
        self.merchantIdentifier = merchantIdentifier
        self.url = url
    }
}

extension Merchant: JSONModel {
    package static let blank = Self(displayName: "", merchantIdentifier: "", url: .placeholder)
    package static let schema = Schema<Self>([
        Property(required: "displayName", { $0.displayName }, { $0.displayName = $1 }),
        Property(required: "merchantIdentifier", { $0.merchantIdentifier }, { $0.merchantIdentifier = $1 }),
        Property(required: "url", { $0.url }, { $0.url = $1 }),
        Property("logo", { $0.logo }, { $0.logo = $1 }),
        Property("address", { $0.address }, { $0.address = $1 }),
        Property("businessChatURL", { $0.businessChatURL }, { $0.businessChatURL = $1 }),
        Property("contactURL", { $0.contactURL }, { $0.contactURL = $1 }),
        Property("emailAddress", { $0.emailAddress }, { $0.emailAddress = $1 }),
        Property("phoneNumber", { $0.phoneNumber }, { $0.phoneNumber = $1 }),
    ])
}
