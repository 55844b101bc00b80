import PassModel

/// One return of items from the order (`returns[]`, Apple's "Return").
public struct Return: Sendable, Hashable {
    /// Opaque and unique within the order; Wallet uses it to detect changes, never shows it.
    public var returnIdentifier: String
    /// Where the return is.
    public var status: ReturnStatus
    /// The carrier taking the items back.
    public var carrier: String?
    /// The last moment to drop the parcel off.
    public var dropOffBy: W3CDate?
    /// When the return was started.
    public var initiatedAt: W3CDate?
    /// When the merchant received the items.
    public var returnedAt: W3CDate?
    /// The items returned.
    public var lineItems: [LineItem] = []
    /// Localized extra information.
    public var notes: String?
    /// The return label in the package: a PDF, JPEG or PNG (the whole package stays below 5 MB).
    public var returnLabel: BundleFilePath?
    /// Where the customer manages this return.
    public var returnManagementURL: OrderURL?
    /// A reference shown to the user.
    public var returnNumber: String?
    /// A localized message about the status.
    public var statusDescription: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a return with the required keys; set the rest by assignment.
    public init(returnIdentifier: String, status: ReturnStatus) {
        self.returnIdentifier = returnIdentifier
        self.status = status
    }
}

extension Return: JSONModel {
    package static let blank = Self(returnIdentifier: "", status: .open)
    package static let schema = Schema<Self>([
        Property(required: "returnIdentifier", { $0.returnIdentifier }, { $0.returnIdentifier = $1 }),
        Property(required: "status", { $0.status }, { $0.status = $1 }),
        Property("carrier", { $0.carrier }, { $0.carrier = $1 }),
        Property("dropOffBy", { $0.dropOffBy }, { $0.dropOffBy = $1 }),
        Property("initiatedAt", { $0.initiatedAt }, { $0.initiatedAt = $1 }),
        Property("returnedAt", { $0.returnedAt }, { $0.returnedAt = $1 }),
        Property("lineItems", { $0.lineItems }, { $0.lineItems = $1 }),
        Property("notes", { $0.notes }, { $0.notes = $1 }),
        Property("returnLabel", { $0.returnLabel }, { $0.returnLabel = $1 }),
        Property("returnManagementURL", { $0.returnManagementURL }, { $0.returnManagementURL = $1 }),
        Property("returnNumber", { $0.returnNumber }, { $0.returnNumber = $1 }),
        Property("statusDescription", { $0.statusDescription }, { $0.statusDescription = $1 }),
    ])
}
