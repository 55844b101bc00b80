import PassModel

/// The order's return policy (`returnInfo`, Apple's "ReturnInfo"). Until `returnDeadline` the merchant
/// may keep updating a completed order.
public struct ReturnInfo: Sendable, Hashable {
    /// The return policy page.
    public var returnPolicyURL: OrderURL
    /// Show a countdown to `returnDeadline`; only when every item can be returned until then. Wallet assumes `false`.
    public var displayCountdown: Bool?
    /// The last day items can be returned.
    public var returnDeadline: W3CDate?
    /// Where the customer starts a return.
    public var returnManagementURL: OrderURL?
    /// A localized summary of the policy.
    public var returnPolicyDescription: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates return information with the required policy page; set the rest by assignment.
    public init(returnPolicyURL: OrderURL) {
        self.returnPolicyURL = returnPolicyURL
    }
}

extension ReturnInfo: JSONModel {
    package static let blank = Self(returnPolicyURL: .placeholder)
    package static let schema = Schema<Self>([
        Property(required: "returnPolicyURL", { $0.returnPolicyURL }, { $0.returnPolicyURL = $1 }),
        Property("displayCountdown", { $0.displayCountdown }, { $0.displayCountdown = $1 }),
        Property("returnDeadline", { $0.returnDeadline }, { $0.returnDeadline = $1 }),
        Property("returnManagementURL", { $0.returnManagementURL }, { $0.returnManagementURL = $1 }),
        Property("returnPolicyDescription", { $0.returnPolicyDescription }, { $0.returnPolicyDescription = $1 }),
    ])
}
