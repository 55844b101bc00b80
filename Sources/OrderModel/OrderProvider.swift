import PassModel

/// The platform that supplies the order data when it is not the merchant (`orderProvider`), e.g. a
/// shop system; its logos are shown when a shipment has a `trackingURL`.
public struct OrderProvider: Sendable, Hashable {
    /// The provider's name.
    public var displayName: String
    /// The provider's website.
    public var url: OrderURL
    /// Logo image file for light appearance.
    public var trackingLogoNameLightColorScheme: BundleFilePath
    /// Logo image file for dark appearance.
    public var trackingLogoNameDarkColorScheme: BundleFilePath
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an order provider.
    public init(displayName: String, url: OrderURL, trackingLogoNameLightColorScheme: BundleFilePath,
                trackingLogoNameDarkColorScheme: BundleFilePath) {
        self.displayName = displayName
        self.url = url
        self.trackingLogoNameLightColorScheme = trackingLogoNameLightColorScheme
        self.trackingLogoNameDarkColorScheme = trackingLogoNameDarkColorScheme
    }
}

extension OrderProvider: JSONModel {
    package static let blank = Self(displayName: "", url: .placeholder, trackingLogoNameLightColorScheme: .placeholder,
                                    trackingLogoNameDarkColorScheme: .placeholder)
    package static let schema = Schema<Self>([
        Property(required: "displayName", { $0.displayName }, { $0.displayName = $1 }),
        Property(required: "url", { $0.url }, { $0.url = $1 }),
        Property(required: "trackingLogoNameLightColorScheme", { $0.trackingLogoNameLightColorScheme }, { $0.trackingLogoNameLightColorScheme = $1 }),
        Property(required: "trackingLogoNameDarkColorScheme", { $0.trackingLogoNameDarkColorScheme }, { $0.trackingLogoNameDarkColorScheme = $1 }),
    ])
}
