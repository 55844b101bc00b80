import PassModel

/// An `order.json` as typed values: every key of Apple's Order documentation (WalletOrders "Order"
/// and the objects it holds), for the orders Wallet tracks after an Apple Pay purchase.
///
/// JSON types, enumerations, dates, durations, URLs and file paths are checked by decoding, with the
/// path of every mismatch; rules across keys (web service pairing, token length, dates in order,
/// unique identifiers) by ``validate()``. Unknown keys are kept in `unknownKeys` at every level and
/// written back unchanged.
public struct Order: Sendable, Hashable {
    // MARK: Identity (required)
    /// Must be 1, the only version Apple has defined.
    public var schemaVersion: Int
    /// The Order Type ID; must match the signing certificate. Not shown to the user.
    public var orderTypeIdentifier: String
    /// Unique within the order type; with it, identifies the order. Not shown to the user.
    public var orderIdentifier: String
    /// Only `ecommerce` is supported.
    public var orderType: OrderType
    /// Where the customer manages the order.
    public var orderManagementURL: OrderURL
    /// Open, or closed as completed or cancelled.
    public var status: OrderStatus
    /// Who sold it.
    public var merchant: Merchant
    /// When the customer placed the order.
    public var createdAt: W3CDate
    /// The last change; equals `createdAt` until then and must only ever increase (Wallet keeps the newest).
    public var updatedAt: W3CDate
    // MARK: Display
    /// A reference for display (the identifier is not shown).
    public var orderNumber: String?
    /// A localized message about the order's status.
    public var statusDescription: String?
    /// The platform supplying the data when it is not the merchant.
    public var orderProvider: OrderProvider?
    /// Who placed the order.
    public var customer: Customer?
    /// An order-level barcode.
    public var barcode: Barcode?
    /// Whether the device tells the user about changes; Wallet assumes `enabled`.
    public var changeNotifications: ChangeNotifications?
    // MARK: Contents
    /// The products, shown in the order given.
    public var lineItems: [LineItem] = []
    /// Shipments and pick-ups, shown in the order given.
    public var fulfillments: [Fulfillment] = []
    /// What it costs and how it was paid.
    public var payment: Payment?
    /// The return policy.
    public var returnInfo: ReturnInfo?
    /// Returns, shown in the order given.
    public var returns: [Return] = []
    // MARK: Apps and web service
    /// Apps in order of preference; the device offers the first one available.
    public var associatedApplications: [Application] = []
    /// App identifiers associated with the order.
    public var associatedApplicationIdentifiers: [String] = []
    /// The base URL of the update service, without `/v1` (the device appends it). https only.
    public var webServiceURL: HTTPSURL?
    /// The secret the device sends to the web service (at least 16 characters); needed with `webServiceURL`.
    public var authenticationToken: String?
    /// Top-level keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an order with the required keys; `updatedAt` starts equal to `createdAt`, as Apple
    /// asks until the first update. Set the rest by assignment.
    public init(orderTypeIdentifier: String, orderIdentifier: String, orderManagementURL: OrderURL, status: OrderStatus,
                merchant: Merchant, createdAt: W3CDate, updatedAt: W3CDate? = nil, orderType: OrderType = .ecommerce,
                schemaVersion: Int = 1) {
        self.schemaVersion = schemaVersion
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.orderType = orderType
        self.orderManagementURL = orderManagementURL
        self.status = status
        self.merchant = merchant
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }
}

extension Order: JSONModel {
    package static let blank = Order(orderTypeIdentifier: "", orderIdentifier: "", orderManagementURL: .placeholder, status: .open,
                                     merchant: .blank, createdAt: .placeholder)

    package static let schema = Schema<Order>([
        Property(required: "schemaVersion", { $0.schemaVersion }, { $0.schemaVersion = $1 }),
        Property(required: "orderTypeIdentifier", { $0.orderTypeIdentifier }, { $0.orderTypeIdentifier = $1 }),
        Property(required: "orderIdentifier", { $0.orderIdentifier }, { $0.orderIdentifier = $1 }),
        Property(required: "orderType", { $0.orderType }, { $0.orderType = $1 }),
        Property(required: "orderManagementURL", { $0.orderManagementURL }, { $0.orderManagementURL = $1 }),
        Property(required: "status", { $0.status }, { $0.status = $1 }),
        Property(required: "merchant", { $0.merchant }, { $0.merchant = $1 }),
        Property(required: "createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        Property(required: "updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
        Property("orderNumber", { $0.orderNumber }, { $0.orderNumber = $1 }),
        Property("statusDescription", { $0.statusDescription }, { $0.statusDescription = $1 }),
        Property("orderProvider", { $0.orderProvider }, { $0.orderProvider = $1 }),
        Property("customer", { $0.customer }, { $0.customer = $1 }),
        Property("barcode", { $0.barcode }, { $0.barcode = $1 }),
        Property("changeNotifications", { $0.changeNotifications }, { $0.changeNotifications = $1 }),
        Property("lineItems", { $0.lineItems }, { $0.lineItems = $1 }),
        Property("fulfillments", { $0.fulfillments }, { $0.fulfillments = $1 }),
        Property("payment", { $0.payment }, { $0.payment = $1 }),
        Property("returnInfo", { $0.returnInfo }, { $0.returnInfo = $1 }),
        Property("returns", { $0.returns }, { $0.returns = $1 }),
        Property("associatedApplications", { $0.associatedApplications }, { $0.associatedApplications = $1 }),
        Property("associatedApplicationIdentifiers", { $0.associatedApplicationIdentifiers }, { $0.associatedApplicationIdentifiers = $1 }),
        Property("webServiceURL", { $0.webServiceURL }, { $0.webServiceURL = $1 }),
        Property("authenticationToken", { $0.authenticationToken }, { $0.authenticationToken = $1 }),
    ])
}
