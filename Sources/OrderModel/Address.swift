import PassModel

/// A postal address (`Address` in Apple's Order documentation): the merchant's, a pick-up place's,
/// or a shipment recipient's. Every key is optional.
public struct Address: Sendable, Hashable {
    /// Street lines, in order.
    public var addressLines: [String] = []
    /// State, province or region.
    public var administrativeArea: String?
    /// ISO 3166-1 alpha-2 country code (`US`, `DE`).
    public var countryCode: String?
    /// City or town.
    public var locality: String?
    /// Postal or ZIP code.
    public var postalCode: String?
    /// County or district.
    public var subAdministrativeArea: String?
    /// Neighbourhood.
    public var subLocality: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// An empty address; set the keys by assignment.
    public init() {}
}

extension Address: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("addressLines", { $0.addressLines }, { $0.addressLines = $1 }),
        Property("administrativeArea", { $0.administrativeArea }, { $0.administrativeArea = $1 }),
        Property("countryCode", { $0.countryCode }, { $0.countryCode = $1 }),
        Property("locality", { $0.locality }, { $0.locality = $1 }),
        Property("postalCode", { $0.postalCode }, { $0.postalCode = $1 }),
        Property("subAdministrativeArea", { $0.subAdministrativeArea }, { $0.subAdministrativeArea = $1 }),
        Property("subLocality", { $0.subLocality }, { $0.subLocality = $1 }),
    ])
}
