/// A `pass.json` as typed values: every key Apple documents through iOS 27 (Apple's Pass reference, developer.apple.com/documentation/walletpasses/pass).
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
    package static let blank = Pass(passTypeIdentifier: "", serialNumber: "", teamIdentifier: "", organizationName: "", description: "")

    package static let schema = Schema<Pass>([
        Property(required: "formatVersion", { $0.formatVersion }, { $0.formatVersion = $1 }),
        Property(required: "passTypeIdentifier", { $0.passTypeIdentifier }, { $0.passTypeIdentifier = $1 }),
        Property(required: "serialNumber", { $0.serialNumber }, { $0.serialNumber = $1 }),
        Property(required: "teamIdentifier", { $0.teamIdentifier }, { $0.teamIdentifier = $1 }),
        Property(required: "organizationName", { $0.organizationName }, { $0.organizationName = $1 }),
        Property(required: "description", { $0.description }, { $0.description = $1 }),
        Property("boardingPass", { $0.boardingPass }, { $0.boardingPass = $1 }),
        Property("coupon", { $0.coupon }, { $0.coupon = $1 }),
        Property("eventTicket", { $0.eventTicket }, { $0.eventTicket = $1 }),
        Property("generic", { $0.generic }, { $0.generic = $1 }),
        Property("storeCard", { $0.storeCard }, { $0.storeCard = $1 }),
        Property("posterGeneric", { $0.posterGeneric }, { $0.posterGeneric = $1 }),
        Property("webServiceURL", { $0.webServiceURL }, { $0.webServiceURL = $1 }),
        Property("authenticationToken", { $0.authenticationToken }, { $0.authenticationToken = $1 }),
        Property("relevantDate", { $0.relevantDate }, { $0.relevantDate = $1 }),
        Property("relevantDates", { $0.relevantDates }, { $0.relevantDates = $1 }),
        Property("expirationDate", { $0.expirationDate }, { $0.expirationDate = $1 }),
        Property("voided", { $0.voided }, { $0.voided = $1 }),
        Property("locations", { $0.locations }, { $0.locations = $1 }),
        Property("maxDistance", { $0.maxDistance }, { $0.maxDistance = $1 }),
        Property("beacons", { $0.beacons }, { $0.beacons = $1 }),
        Property("barcode", { $0.barcode }, { $0.barcode = $1 }),
        Property("barcodes", { $0.barcodes }, { $0.barcodes = $1 }),
        Property("nfc", { $0.nfc }, { $0.nfc = $1 }),
        Property("backgroundColor", { $0.backgroundColor }, { $0.backgroundColor = $1 }),
        Property("foregroundColor", { $0.foregroundColor }, { $0.foregroundColor = $1 }),
        Property("labelColor", { $0.labelColor }, { $0.labelColor = $1 }),
        Property("stripColor", { $0.stripColor }, { $0.stripColor = $1 }),
        Property("footerBackgroundColor", { $0.footerBackgroundColor }, { $0.footerBackgroundColor = $1 }),
        Property("useAutomaticColors", { $0.useAutomaticColors }, { $0.useAutomaticColors = $1 }),
        Property("suppressHeaderDarkening", { $0.suppressHeaderDarkening }, { $0.suppressHeaderDarkening = $1 }),
        Property("logoText", { $0.logoText }, { $0.logoText = $1 }),
        Property("eventLogoText", { $0.eventLogoText }, { $0.eventLogoText = $1 }),
        Property("logoSymbolName", { $0.logoSymbolName }, { $0.logoSymbolName = $1 }),
        Property("groupingIdentifier", { $0.groupingIdentifier }, { $0.groupingIdentifier = $1 }),
        Property("suppressStripShine", { $0.suppressStripShine }, { $0.suppressStripShine = $1 }),
        Property("sharingProhibited", { $0.sharingProhibited }, { $0.sharingProhibited = $1 }),
        Property("appLaunchURL", { $0.appLaunchURL }, { $0.appLaunchURL = $1 }),
        Property("associatedStoreIdentifiers", { $0.associatedStoreIdentifiers }, { $0.associatedStoreIdentifiers = $1 }),
        Property("auxiliaryStoreIdentifiers", { $0.auxiliaryStoreIdentifiers }, { $0.auxiliaryStoreIdentifiers = $1 }),
        Property("userInfo", { $0.userInfo }, { $0.userInfo = $1 }),
        Property("semantics", { $0.semantics }, { $0.semantics = $1 }),
        Property("preferredStyleSchemes", { $0.preferredStyleSchemes }, { $0.preferredStyleSchemes = $1 }),
        Property("changeSeatURL", { $0.changeSeatURL }, { $0.changeSeatURL = $1 }),
        Property("entertainmentURL", { $0.entertainmentURL }, { $0.entertainmentURL = $1 }),
        Property("purchaseAdditionalBaggageURL", { $0.purchaseAdditionalBaggageURL }, { $0.purchaseAdditionalBaggageURL = $1 }),
        Property("purchaseLoungeAccessURL", { $0.purchaseLoungeAccessURL }, { $0.purchaseLoungeAccessURL = $1 }),
        Property("purchaseWifiURL", { $0.purchaseWifiURL }, { $0.purchaseWifiURL = $1 }),
        Property("upgradeURL", { $0.upgradeURL }, { $0.upgradeURL = $1 }),
        Property("managementURL", { $0.managementURL }, { $0.managementURL = $1 }),
        Property("registerServiceAnimalURL", { $0.registerServiceAnimalURL }, { $0.registerServiceAnimalURL = $1 }),
        Property("reportLostBagURL", { $0.reportLostBagURL }, { $0.reportLostBagURL = $1 }),
        Property("requestWheelchairURL", { $0.requestWheelchairURL }, { $0.requestWheelchairURL = $1 }),
        Property("trackBagsURL", { $0.trackBagsURL }, { $0.trackBagsURL = $1 }),
        Property("transitProviderEmail", { $0.transitProviderEmail }, { $0.transitProviderEmail = $1 }),
        Property("transitProviderPhoneNumber", { $0.transitProviderPhoneNumber }, { $0.transitProviderPhoneNumber = $1 }),
        Property("transitProviderWebsiteURL", { $0.transitProviderWebsiteURL }, { $0.transitProviderWebsiteURL = $1 }),
        Property("upcomingPassInformation", { $0.upcomingPassInformation }, { $0.upcomingPassInformation = $1 }),
        Property("featuredActions", { $0.featuredActions }, { $0.featuredActions = $1 }),
    ] + EventGuideURLs.schema.properties.map { Property($0, through: { $0.eventGuideURLs }, { $0.eventGuideURLs = $1 }) })
}
