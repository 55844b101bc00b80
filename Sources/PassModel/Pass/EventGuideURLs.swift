/// The event-guide links of a poster event ticket (iOS 18+): flat keys on the pass, and the `URLs`
/// object of an upcoming event entry (Apple's Pass reference). One type so both places share the same keys.
public struct EventGuideURLs: Sendable, Hashable {
    /// Accessibility information.
    public var accessibilityURL: String?
    /// Add-ons purchase.
    public var addOnURL: String?
    /// Bag policy.
    public var bagPolicyURL: String?
    /// Directions.
    public var directionsInformationURL: String?
    /// Merchandise.
    public var merchandiseURL: String?
    /// Food ordering.
    public var orderFoodURL: String?
    /// Parking information.
    public var parkingInformationURL: String?
    /// Parking purchase.
    public var purchaseParkingURL: String?
    /// Resale; also shown in the pass menu.
    public var sellURL: String?
    /// Transfer; also shown in the pass menu.
    public var transferURL: String?
    /// Transit information.
    public var transitInformationURL: String?
    /// Venue website.
    public var contactVenueWebsite: String?
    /// Venue e-mail.
    public var contactVenueEmail: String?
    /// Venue phone number.
    public var contactVenuePhoneNumber: String?
    /// Keys PassModel does not know (only used where this is its own object), kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an empty set of links.
    public init() {}
}

extension EventGuideURLs: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("accessibilityURL", { $0.accessibilityURL }, { $0.accessibilityURL = $1 }), Property("addOnURL", { $0.addOnURL }, { $0.addOnURL = $1 }),
        Property("bagPolicyURL", { $0.bagPolicyURL }, { $0.bagPolicyURL = $1 }), Property("directionsInformationURL", { $0.directionsInformationURL }, { $0.directionsInformationURL = $1 }),
        Property("merchandiseURL", { $0.merchandiseURL }, { $0.merchandiseURL = $1 }), Property("orderFoodURL", { $0.orderFoodURL }, { $0.orderFoodURL = $1 }),
        Property("parkingInformationURL", { $0.parkingInformationURL }, { $0.parkingInformationURL = $1 }), Property("purchaseParkingURL", { $0.purchaseParkingURL }, { $0.purchaseParkingURL = $1 }),
        Property("sellURL", { $0.sellURL }, { $0.sellURL = $1 }), Property("transferURL", { $0.transferURL }, { $0.transferURL = $1 }),
        Property("transitInformationURL", { $0.transitInformationURL }, { $0.transitInformationURL = $1 }), Property("contactVenueWebsite", { $0.contactVenueWebsite }, { $0.contactVenueWebsite = $1 }),
        Property("contactVenueEmail", { $0.contactVenueEmail }, { $0.contactVenueEmail = $1 }), Property("contactVenuePhoneNumber", { $0.contactVenuePhoneNumber }, { $0.contactVenuePhoneNumber = $1 }),
    ])
}
