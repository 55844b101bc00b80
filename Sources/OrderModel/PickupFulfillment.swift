import PassModel

/// A pick-up (`fulfillmentType` `pickup`, Apple's "PickupFulfillment"): where and when the customer
/// collects the items.
public struct PickupFulfillment: Sendable, Hashable {
    /// Opaque and unique within the order; Wallet uses it to detect changes and notify, never shows it.
    public var fulfillmentIdentifier: String
    /// The localized name of the pick-up place (required for pick-ups only).
    public var displayName: String
    /// Where the pick-up is.
    public var status: PickupStatus
    /// The pick-up place's address.
    public var address: Address?
    /// Coordinates, for when the address is not precise enough.
    public var location: Location?
    /// The code to show at the counter.
    public var barcode: Barcode?
    /// When the pick-up window opens.
    public var pickupAt: W3CDate?
    /// How long the window stays open after `pickupAt`.
    public var pickupWindowDuration: ISODuration?
    /// When the items were collected.
    public var pickedUpAt: W3CDate?
    /// The items to collect.
    public var lineItems: [LineItem] = []
    /// Localized pick-up instructions.
    public var notes: String?
    /// A localized message about the status.
    public var statusDescription: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a pick-up with the required keys; set the rest by assignment.
    public init(fulfillmentIdentifier: String, displayName: String, status: PickupStatus) {
        self.fulfillmentIdentifier = fulfillmentIdentifier
        self.displayName = displayName
        self.status = status
    }
}

extension PickupFulfillment: JSONModel {
    package static let blank = Self(fulfillmentIdentifier: "", displayName: "", status: .open)
    package static let schema = Schema<Self>([
        // Checked, and the case chosen, by ``Fulfillment``; always written back as `pickup`.
        Property(required: "fulfillmentType", { _ in FulfillmentType.pickup }, { _, _ in }),
        Property(required: "fulfillmentIdentifier", { $0.fulfillmentIdentifier }, { $0.fulfillmentIdentifier = $1 }),
        Property(required: "displayName", { $0.displayName }, { $0.displayName = $1 }),
        Property(required: "status", { $0.status }, { $0.status = $1 }),
        Property("address", { $0.address }, { $0.address = $1 }),
        Property("location", { $0.location }, { $0.location = $1 }),
        Property("barcode", { $0.barcode }, { $0.barcode = $1 }),
        Property("pickupAt", { $0.pickupAt }, { $0.pickupAt = $1 }),
        Property("pickupWindowDuration", { $0.pickupWindowDuration }, { $0.pickupWindowDuration = $1 }),
        Property("pickedUpAt", { $0.pickedUpAt }, { $0.pickedUpAt = $1 }),
        Property("lineItems", { $0.lineItems }, { $0.lineItems = $1 }),
        Property("notes", { $0.notes }, { $0.notes = $1 }),
        Property("statusDescription", { $0.statusDescription }, { $0.statusDescription = $1 }),
    ])
}
