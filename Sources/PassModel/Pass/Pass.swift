/// A `pass.json` as typed values: every key Apple documents through iOS 27 (digest §2).
///
/// The model mirrors the JSON (style keys are optional properties) so that a pass breaking a rule can
/// still be represented and ``validate()`` can say what is wrong; the JSON types themselves (strings,
/// numbers, dates, colours) are checked by decoding, with the path of the first mismatch.
/// Unknown keys are kept in ``unknownKeys`` at every level and written back unchanged.
public struct Pass: Sendable, Hashable {
    // MARK: Identity (required)
    /// Must be 1 (a number, not "1").
    public var formatVersion: Int
    /// Reverse-DNS pass type ID starting with `pass.`; must match the signing certificate.
    public var passTypeIdentifier: String
    /// Unique within the pass type; a string, never a number. Can't change in an update.
    public var serialNumber: String
    /// The 10-character Apple Team ID of the signing certificate.
    public var teamIdentifier: String
    /// Shown on the lock screen and in Mail (localizable).
    public var organizationName: String
    /// What VoiceOver reads for the pass (localizable).
    public var description: String
    // MARK: Style
    /// Boarding pass fields; needs `transitType`.
    public var boardingPass: PassFields?
    /// Coupon fields.
    public var coupon: PassFields?
    /// Event ticket fields (poster event tickets keep this key).
    public var eventTicket: PassFields?
    /// Generic pass fields.
    public var generic: PassFields?
    /// Store card fields.
    public var storeCard: PassFields?
    /// iOS 27 poster layout, next to a classic style that older systems use.
    public var posterGeneric: PassFields?
    // MARK: Web service
    /// HTTPS base URL of the update service, without `/v1` (the device appends it).
    public var webServiceURL: String?
    /// Secret the device sends back (at least 16 characters); can't change in an update.
    public var authenticationToken: String?
    // MARK: Relevance
    /// Deprecated in iOS 18; use `relevantDates`.
    public var relevantDate: W3CDate?
    /// When the pass is relevant (iOS 18+); also drives poster Live Activities.
    public var relevantDates: [RelevantDate] = []
    /// After this the pass shows as expired.
    public var expirationDate: W3CDate?
    /// Marks the pass void.
    public var voided: Bool?
    /// Places that bring the pass up (at most 10).
    public var locations: [Location] = []
    /// Metres; Wallet uses the smaller of this and its default radius.
    public var maxDistance: Double?
    /// iBeacons that bring the pass up.
    public var beacons: [Beacon] = []
    // MARK: Barcodes and NFC
    /// Deprecated since iOS 9 (no Code128); kept for very old devices.
    public var barcode: Barcode?
    /// Barcodes in preference order; the first one the device can draw is shown.
    public var barcodes: [Barcode] = []
    /// NFC payload; needs an NFC-entitled certificate.
    public var nfc: NFC?
    // MARK: Appearance
    /// Background colour.
    public var backgroundColor: Color?
    /// Value text colour.
    public var foregroundColor: Color?
    /// Label text colour; Wallet picks one when absent.
    public var labelColor: Color?
    /// Colour of primary values drawn over a strip image (undocumented).
    public var stripColor: Color?
    /// Poster event ticket footer colour.
    public var footerBackgroundColor: Color?
    /// Poster event tickets: derive text colours from the background image.
    public var useAutomaticColors: Bool?
    /// Poster layouts: don't darken behind the header.
    public var suppressHeaderDarkening: Bool?
    /// Text next to the logo (not on poster event tickets).
    public var logoText: String?
    /// Logo text of poster event tickets (iOS 18.1).
    public var eventLogoText: String?
    /// SF Symbol used as the logo (iOS 27).
    public var logoSymbolName: String?
    /// Groups boarding passes or event tickets of one trip or event; those styles only.
    public var groupingIdentifier: String?
    /// No effect since iOS 7; kept for round trips.
    public var suppressStripShine: Bool?
    /// Hides the Share button.
    public var sharingProhibited: Bool?
    // MARK: Apps and data
    /// URL handed to the associated app; requires `associatedStoreIdentifiers`.
    public var appLaunchURL: String?
    /// App Store IDs (numbers; strings make the pass invalid).
    public var associatedStoreIdentifiers: [Int] = []
    /// Apps linked in a poster event guide.
    public var auxiliaryStoreIdentifiers: [Int] = []
    /// Data for companion apps; must be an object.
    public var userInfo: JSONObject?
    /// Machine-readable meaning of the pass.
    public var semantics: SemanticTags?
    /// Richer layouts to try, in order; each must match the style key.
    public var preferredStyleSchemes: [StyleScheme] = []
    // MARK: Semantic boarding pass links (iOS 26)
    /// Change seat.
    public var changeSeatURL: String?
    /// In-flight entertainment.
    public var entertainmentURL: String?
    /// Buy extra baggage.
    public var purchaseAdditionalBaggageURL: String?
    /// Buy lounge access.
    public var purchaseLoungeAccessURL: String?
    /// Buy Wi-Fi.
    public var purchaseWifiURL: String?
    /// Upgrade.
    public var upgradeURL: String?
    /// Manage the booking.
    public var managementURL: String?
    /// Register a service animal.
    public var registerServiceAnimalURL: String?
    /// Report a lost bag.
    public var reportLostBagURL: String?
    /// Request a wheelchair.
    public var requestWheelchairURL: String?
    /// Track bags.
    public var trackBagsURL: String?
    /// Carrier e-mail.
    public var transitProviderEmail: String?
    /// Carrier phone.
    public var transitProviderPhoneNumber: String?
    /// Carrier website.
    public var transitProviderWebsiteURL: String?
    // MARK: Newer layouts
    /// Poster event guide links; written as flat top-level keys.
    public var eventGuideURLs = EventGuideURLs()
    /// Upcoming events of a poster event ticket (iOS 26).
    public var upcomingPassInformation: [UpcomingPassInformationEntry] = []
    /// Action cards (iOS 27, at most 2).
    public var featuredActions: [FeaturedAction] = []
    /// Top-level keys PassModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a pass with the required keys; add a style (e.g. `storeCard`) and the rest by assignment.
    public init(passTypeIdentifier: String, serialNumber: String, teamIdentifier: String,
                organizationName: String, description: String, formatVersion: Int = 1) {
        self.formatVersion = formatVersion
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.teamIdentifier = teamIdentifier
        self.organizationName = organizationName
        self.description = description
    }
}

extension Pass: JSONModel {
    static let blank = Pass(passTypeIdentifier: "", serialNumber: "", teamIdentifier: "", organizationName: "", description: "")

    static let schema = Schema<Pass>([
        Property(required: "formatVersion", \.formatVersion),
        Property(required: "passTypeIdentifier", \.passTypeIdentifier),
        Property(required: "serialNumber", \.serialNumber),
        Property(required: "teamIdentifier", \.teamIdentifier),
        Property(required: "organizationName", \.organizationName),
        Property(required: "description", \.description),
        Property("boardingPass", \.boardingPass),
        Property("coupon", \.coupon),
        Property("eventTicket", \.eventTicket),
        Property("generic", \.generic),
        Property("storeCard", \.storeCard),
        Property("posterGeneric", \.posterGeneric),
        Property("webServiceURL", \.webServiceURL),
        Property("authenticationToken", \.authenticationToken),
        Property("relevantDate", \.relevantDate),
        Property("relevantDates", \.relevantDates),
        Property("expirationDate", \.expirationDate),
        Property("voided", \.voided),
        Property("locations", \.locations),
        Property("maxDistance", \.maxDistance),
        Property("beacons", \.beacons),
        Property("barcode", \.barcode),
        Property("barcodes", \.barcodes),
        Property("nfc", \.nfc),
        Property("backgroundColor", \.backgroundColor),
        Property("foregroundColor", \.foregroundColor),
        Property("labelColor", \.labelColor),
        Property("stripColor", \.stripColor),
        Property("footerBackgroundColor", \.footerBackgroundColor),
        Property("useAutomaticColors", \.useAutomaticColors),
        Property("suppressHeaderDarkening", \.suppressHeaderDarkening),
        Property("logoText", \.logoText),
        Property("eventLogoText", \.eventLogoText),
        Property("logoSymbolName", \.logoSymbolName),
        Property("groupingIdentifier", \.groupingIdentifier),
        Property("suppressStripShine", \.suppressStripShine),
        Property("sharingProhibited", \.sharingProhibited),
        Property("appLaunchURL", \.appLaunchURL),
        Property("associatedStoreIdentifiers", \.associatedStoreIdentifiers),
        Property("auxiliaryStoreIdentifiers", \.auxiliaryStoreIdentifiers),
        Property("userInfo", \.userInfo),
        Property("semantics", \.semantics),
        Property("preferredStyleSchemes", \.preferredStyleSchemes),
        Property("changeSeatURL", \.changeSeatURL),
        Property("entertainmentURL", \.entertainmentURL),
        Property("purchaseAdditionalBaggageURL", \.purchaseAdditionalBaggageURL),
        Property("purchaseLoungeAccessURL", \.purchaseLoungeAccessURL),
        Property("purchaseWifiURL", \.purchaseWifiURL),
        Property("upgradeURL", \.upgradeURL),
        Property("managementURL", \.managementURL),
        Property("registerServiceAnimalURL", \.registerServiceAnimalURL),
        Property("reportLostBagURL", \.reportLostBagURL),
        Property("requestWheelchairURL", \.requestWheelchairURL),
        Property("trackBagsURL", \.trackBagsURL),
        Property("transitProviderEmail", \.transitProviderEmail),
        Property("transitProviderPhoneNumber", \.transitProviderPhoneNumber),
        Property("transitProviderWebsiteURL", \.transitProviderWebsiteURL),
        Property("upcomingPassInformation", \.upcomingPassInformation),
        Property("featuredActions", \.featuredActions),
    ] + EventGuideURLs.schema.properties.map { Property($0, through: \.eventGuideURLs) })
}
