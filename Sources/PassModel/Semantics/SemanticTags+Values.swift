extension SemanticTags {
    /// An amount of money; `amount` is a decimal string so no precision is lost.
    public struct CurrencyAmount: Sendable, Hashable {
        /// ISO 4217 code.
        public var currencyCode: String?
        /// Decimal amount as a string, e.g. "12.50".
        public var amount: String?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates an amount.
        public init(currencyCode: String? = nil, amount: String? = nil) {
            self.currencyCode = currencyCode
            self.amount = amount
        }
    }

    /// Coordinates of a venue or station.
    public struct Location: Sendable, Hashable {
        /// Degrees, -90...90.
        public var latitude: Double
        /// Degrees, -180...180.
        public var longitude: Double
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a location.
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// A person's name in parts, so Wallet can show and speak it correctly.
    public struct PersonNameComponents: Sendable, Hashable {
        /// First name.
        public var givenName: String?
        /// Last name.
        public var familyName: String?
        /// Middle name.
        public var middleName: String?
        /// "Dr.", "Ms."...
        public var namePrefix: String?
        /// "Jr.", "PhD"...
        public var nameSuffix: String?
        /// Informal name.
        public var nickname: String?
        // Stored in an array because a struct cannot contain itself directly.
        private var phonetic: [PersonNameComponents] = []
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// How the name is pronounced, in the same parts.
        public var phoneticRepresentation: PersonNameComponents? {
            get { phonetic.first }
            set { phonetic = newValue.map { [$0] } ?? [] }
        }

        /// Creates a name.
        public init(givenName: String? = nil, familyName: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    /// A seat an event ticket admits to.
    public struct Seat: Sendable, Hashable {
        /// Section.
        public var seatSection: String?
        /// Row.
        public var seatRow: String?
        /// Seat number.
        public var seatNumber: String?
        /// Seat identifier.
        public var seatIdentifier: String?
        /// Seat type.
        public var seatType: String?
        /// Seat description.
        public var seatDescription: String?
        /// Aisle (iOS 18).
        public var seatAisle: String?
        /// Level (iOS 18).
        public var seatLevel: String?
        /// Section colour (iOS 18).
        public var seatSectionColor: Color?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates an empty seat.
        public init() {}
    }

    /// A Wi-Fi network the holder may join.
    public struct WifiNetwork: Sendable, Hashable {
        /// Network name.
        public var ssid: String
        /// Network password.
        public var password: String
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a network.
        public init(ssid: String, password: String) {
            self.ssid = ssid
            self.password = password
        }
    }

    /// An event date that may not be known yet (shown as TBA/TBD).
    public struct EventDateInfo: Sendable, Hashable {
        /// The date.
        public var date: W3CDate?
        /// Time zone identifier for display.
        public var timeZone: String?
        /// Show the day only.
        public var ignoreTimeComponents: Bool?
        /// Show "TBA" (iOS 18.1).
        public var unannounced: Bool?
        /// Show "TBD" (iOS 18.1).
        public var undetermined: Bool?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates date information.
        public init(date: W3CDate? = nil) {
            self.date = date
        }
    }
}

extension SemanticTags.CurrencyAmount: JSONModel {
    static let blank = Self()
    static let schema = Schema<Self>([Property("currencyCode", \.currencyCode), Property("amount", \.amount)])
}

extension SemanticTags.Location: JSONModel {
    static let blank = Self(latitude: 0, longitude: 0)
    static let schema = Schema<Self>([Property(required: "latitude", \.latitude), Property(required: "longitude", \.longitude)])
}

extension SemanticTags.PersonNameComponents: JSONModel {
    static let blank = Self()
    static let schema = Schema<Self>([
        Property("givenName", \.givenName), Property("familyName", \.familyName), Property("middleName", \.middleName),
        Property("namePrefix", \.namePrefix), Property("nameSuffix", \.nameSuffix), Property("nickname", \.nickname),
        Property("phoneticRepresentation", \.phoneticRepresentation),
    ])
}

extension SemanticTags.Seat: JSONModel {
    static let blank = Self()
    static let schema = Schema<Self>([
        Property("seatSection", \.seatSection), Property("seatRow", \.seatRow), Property("seatNumber", \.seatNumber),
        Property("seatIdentifier", \.seatIdentifier), Property("seatType", \.seatType),
        Property("seatDescription", \.seatDescription), Property("seatAisle", \.seatAisle),
        Property("seatLevel", \.seatLevel), Property("seatSectionColor", \.seatSectionColor),
    ])
}

extension SemanticTags.WifiNetwork: JSONModel {
    static let blank = Self(ssid: "", password: "")
    static let schema = Schema<Self>([Property(required: "ssid", \.ssid), Property(required: "password", \.password)])
}

extension SemanticTags.EventDateInfo: JSONModel {
    static let blank = Self()
    static let schema = Schema<Self>([
        Property("date", \.date), Property("timeZone", \.timeZone), Property("ignoreTimeComponents", \.ignoreTimeComponents),
        Property("unannounced", \.unannounced), Property("undetermined", \.undetermined),
    ])
}
