/// The event-guide links of a poster event ticket (iOS 18+): flat keys on the pass, and the `URLs`
/// object of an upcoming event entry (§2.13). One type so both places share the same keys.
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

    /// Whether no link is set.
    public var isEmpty: Bool { self == EventGuideURLs() }
}

extension EventGuideURLs: JSONModel {
    static let blank = Self()
    static let schema = Schema<Self>([
        Property("accessibilityURL", \.accessibilityURL), Property("addOnURL", \.addOnURL),
        Property("bagPolicyURL", \.bagPolicyURL), Property("directionsInformationURL", \.directionsInformationURL),
        Property("merchandiseURL", \.merchandiseURL), Property("orderFoodURL", \.orderFoodURL),
        Property("parkingInformationURL", \.parkingInformationURL), Property("purchaseParkingURL", \.purchaseParkingURL),
        Property("sellURL", \.sellURL), Property("transferURL", \.transferURL),
        Property("transitInformationURL", \.transitInformationURL), Property("contactVenueWebsite", \.contactVenueWebsite),
        Property("contactVenueEmail", \.contactVenueEmail), Property("contactVenuePhoneNumber", \.contactVenuePhoneNumber),
    ])
}
