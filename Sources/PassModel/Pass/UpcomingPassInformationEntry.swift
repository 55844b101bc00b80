/// An upcoming event inside a poster event ticket (`upcomingPassInformation`, iOS 26, Apple's Pass reference).
///
/// `type`, `identifier` and `name` are optional here so a template missing one decodes and
/// ``Pass/validate()`` can report every gap at once.
public struct UpcomingPassInformationEntry: Sendable, Hashable {
    /// Entry kind; `"event"`.
    public var type: String?
    /// Unique within the pass.
    public var identifier: String?
    /// Event name (localizable).
    public var name: String?
    /// When; without it the entry shows "TBD".
    public var dateInformation: DateInformation?
    /// The event's semantics, including `venuePlaceID`.
    public var semantics: SemanticTags?
    /// Event-guide links for this event.
    public var urls: EventGuideURLs?
    /// Header image and venue map.
    public var images: Images?
    /// Event-guide fields.
    public var additionalInfoFields: [Field] = []
    /// Detail fields.
    public var backFields: [Field] = []
    /// App Store IDs of apps linked in the guide.
    public var auxiliaryStoreIdentifiers: [Int]?
    /// Whether the event is the active one (default false).
    public var isActive: Bool?
    /// Keys PassModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an event entry.
    public init(identifier: String? = nil, name: String? = nil, type: String? = "event") {
        self.type = type
        self.identifier = identifier
        self.name = name
    }

    /// When an upcoming event happens.
    public struct DateInformation: Sendable, Hashable {
        /// The date.
        public var date: W3CDate?
        /// Time zone identifier for display.
        public var timeZone: String?
        /// Show the day only.
        public var ignoreTimeComponents: Bool?
        /// Lasts all day.
        public var isAllDay: Bool?
        /// Show "TBA".
        public var isUnannounced: Bool?
        /// Show "TBD".
        public var isUndetermined: Bool?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates date information.
        public init(date: W3CDate? = nil) {
            self.date = date
        }
    }

    /// The images of an entry.
    public struct Images: Sendable, Hashable {
        /// Header image.
        public var headerImage: Image?
        /// Venue map.
        public var venueMap: Image?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates image references.
        public init(headerImage: Image? = nil, venueMap: Image? = nil) {
            self.headerImage = headerImage
            self.venueMap = venueMap
        }
    }

    /// Remote copies of an image, or `reuseExisting` to use the pass's own.
    public struct Image: Sendable, Hashable {
        /// Remote variants by scale.
        public var urls: [RemoteImage] = []
        /// Reuse the image of the same name in the pass.
        public var reuseExisting: Bool?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates an image reference.
        public init(urls: [RemoteImage] = [], reuseExisting: Bool? = nil) {
            self.urls = urls
            self.reuseExisting = reuseExisting
        }
    }

    /// One remote image file: https URL, SHA-256 of its bytes, scale and byte size (at most 2 MB).
    public struct RemoteImage: Sendable, Hashable {
        /// https URL.
        public var url: String
        /// Hex SHA-256 of the file, so Wallet can verify the download.
        public var sha256: String
        /// Scale factor (default 1).
        public var scale: Double?
        /// Size in bytes.
        public var size: Int?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a remote image.
        public init(url: String, sha256: String, scale: Double? = nil, size: Int? = nil) {
            self.url = url
            self.sha256 = sha256
            self.scale = scale
            self.size = size
        }
    }
}

extension UpcomingPassInformationEntry: JSONModel {
    package static let blank = Self(type: nil)
    package static let schema = Schema<Self>([
        Property("type", { $0.type }, { $0.type = $1 }), Property("identifier", { $0.identifier }, { $0.identifier = $1 }), Property("name", { $0.name }, { $0.name = $1 }),
        Property("dateInformation", { $0.dateInformation }, { $0.dateInformation = $1 }), Property("semantics", { $0.semantics }, { $0.semantics = $1 }),
        Property("URLs", { $0.urls }, { $0.urls = $1 }), Property("images", { $0.images }, { $0.images = $1 }),
        Property("additionalInfoFields", { $0.additionalInfoFields }, { $0.additionalInfoFields = $1 }), Property("backFields", { $0.backFields }, { $0.backFields = $1 }),
        Property("auxiliaryStoreIdentifiers", { $0.auxiliaryStoreIdentifiers }, { $0.auxiliaryStoreIdentifiers = $1 }), Property("isActive", { $0.isActive }, { $0.isActive = $1 }),
    ])
}

extension UpcomingPassInformationEntry.DateInformation: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("date", { $0.date }, { $0.date = $1 }), Property("timeZone", { $0.timeZone }, { $0.timeZone = $1 }), Property("ignoreTimeComponents", { $0.ignoreTimeComponents }, { $0.ignoreTimeComponents = $1 }),
        Property("isAllDay", { $0.isAllDay }, { $0.isAllDay = $1 }), Property("isUnannounced", { $0.isUnannounced }, { $0.isUnannounced = $1 }), Property("isUndetermined", { $0.isUndetermined }, { $0.isUndetermined = $1 }),
    ])
}

extension UpcomingPassInformationEntry.Images: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([Property("headerImage", { $0.headerImage }, { $0.headerImage = $1 }), Property("venueMap", { $0.venueMap }, { $0.venueMap = $1 })])
}

extension UpcomingPassInformationEntry.Image: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([Property("URLs", { $0.urls }, { $0.urls = $1 }), Property("reuseExisting", { $0.reuseExisting }, { $0.reuseExisting = $1 })])
}

extension UpcomingPassInformationEntry.RemoteImage: JSONModel {
    package static let blank = Self(url: "", sha256: "")
    package static let schema = Schema<Self>([
        Property(required: "URL", { $0.url }, { $0.url = $1 }), Property(required: "SHA256", { $0.sha256 }, { $0.sha256 = $1 }),
        Property("scale", { $0.scale }, { $0.scale = $1 }), Property("size", { $0.size }, { $0.size = $1 }),
    ])
}
