import PassModel

/// An app that belongs to the order (`associatedApplications[]`, Apple's "Application"): Wallet
/// offers the first one installed or available, in the order given.
public struct Application: Sendable, Hashable {
    /// The app's App Store identifier (a number, like a pass's `associatedStoreIdentifiers`).
    public var storeIdentifier: Int
    /// The URL the app is opened with; usually the app's own scheme.
    public var launchURL: OrderURL?
    /// A custom App Store product page to show instead of the default one.
    public var customProductPageIdentifier: String?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an application reference.
    public init(storeIdentifier: Int, launchURL: OrderURL? = nil, customProductPageIdentifier: String? = nil) {
        self.storeIdentifier = storeIdentifier
        self.launchURL = launchURL
        self.customProductPageIdentifier = customProductPageIdentifier
    }
}

extension Application: JSONModel {
    package static let blank = Self(storeIdentifier: 0)
    package static let schema = Schema<Self>([
        Property(required: "storeIdentifier", { $0.storeIdentifier }, { $0.storeIdentifier = $1 }),
        Property("launchURL", { $0.launchURL }, { $0.launchURL = $1 }),
        Property("customProductPageIdentifier", { $0.customProductPageIdentifier }, { $0.customProductPageIdentifier = $1 }),
    ])
}
