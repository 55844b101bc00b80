import PassModel

/// A shipment (`fulfillmentType` `shipping`, Apple's "ShippingFulfillment"): the carrier's progress
/// towards the customer.
public struct ShippingFulfillment: Sendable, Hashable {
    /// Opaque and unique within the order; Wallet uses it to detect changes and notify, never shows it.
    public var fulfillmentIdentifier: String
    /// Where the shipment is.
    public var status: ShippingStatus
    /// The carrier's name.
    public var carrier: String?
    /// The carrier's tracking number.
    public var trackingNumber: String?
    /// The carrier's tracking page.
    public var trackingURL: OrderURL?
    /// When it left.
    public var shippedAt: W3CDate?
    /// The carrier's estimate; its time is ignored unless `estimatedDeliveryWindowDuration` is given.
    public var estimatedDeliveryAt: W3CDate?
    /// How long the delivery window after `estimatedDeliveryAt` lasts.
    public var estimatedDeliveryWindowDuration: ISODuration?
    /// When it arrived.
    public var deliveredAt: W3CDate?
    /// The items in this shipment.
    public var lineItems: [LineItem] = []
    /// Localized extra information (e.g. "signature required").
    public var notes: String?
    /// Who receives it.
    public var recipient: Recipient?
    /// Whether Wallet words it as shipping (the default) or delivery.
    public var shippingType: ShippingType?
    /// A localized message about the status.
    public var statusDescription: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a shipment with the required keys; set the rest by assignment.
    public init(fulfillmentIdentifier: String, status: ShippingStatus) {
        self.fulfillmentIdentifier = fulfillmentIdentifier
        self.status = status
    }

    /// Who a shipment goes to (`ShippingFulfillment.Recipient`); every key optional.
    public struct Recipient: Sendable, Hashable {
        /// The delivery address.
        public var address: Address?
        /// Family name.
        public var familyName: String?
        /// Given name.
        public var givenName: String?
        /// Company.
        public var organizationName: String?
        /// Keys OrderModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// An empty recipient; set the keys by assignment.
        public init() {}
    }
}

extension ShippingFulfillment: JSONModel {
    package static let blank = Self(fulfillmentIdentifier: "", status: .open)
    package static let schema = Schema<Self>([
        // Checked, and the case chosen, by ``Fulfillment``; always written back as `shipping`.
        Property(required: "fulfillmentType", { _ in FulfillmentType.shipping }, { _, _ in }),
        Property(required: "fulfillmentIdentifier", { $0.fulfillmentIdentifier }, { $0.fulfillmentIdentifier = $1 }),
        Property(required: "status", { $0.status }, { $0.status = $1 }),
        Property("carrier", { $0.carrier }, { $0.carrier = $1 }),
        Property("trackingNumber", { $0.trackingNumber }, { $0.trackingNumber = $1 }),
        Property("trackingURL", { $0.trackingURL }, { $0.trackingURL = $1 }),
        Property("shippedAt", { $0.shippedAt }, { $0.shippedAt = $1 }),
        Property("estimatedDeliveryAt", { $0.estimatedDeliveryAt }, { $0.estimatedDeliveryAt = $1 }),
        Property("estimatedDeliveryWindowDuration", { $0.estimatedDeliveryWindowDuration }, { $0.estimatedDeliveryWindowDuration = $1 }),
        Property("deliveredAt", { $0.deliveredAt }, { $0.deliveredAt = $1 }),
        Property("lineItems", { $0.lineItems }, { $0.lineItems = $1 }),
        Property("notes", { $0.notes }, { $0.notes = $1 }),
        Property("recipient", { $0.recipient }, { $0.recipient = $1 }),
        Property("shippingType", { $0.shippingType }, { $0.shippingType = $1 }),
        Property("statusDescription", { $0.statusDescription }, { $0.statusDescription = $1 }),
    ])
}

extension ShippingFulfillment.Recipient: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("address", { $0.address }, { $0.address = $1 }),
        Property("familyName", { $0.familyName }, { $0.familyName = $1 }),
        Property("givenName", { $0.givenName }, { $0.givenName = $1 }),
        Property("organizationName", { $0.organizationName }, { $0.organizationName = $1 }),
    ])
}
