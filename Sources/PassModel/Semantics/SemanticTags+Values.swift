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
    package static let blank = Self()
    package static let schema = Schema<Self>([Property("currencyCode", { $0.currencyCode }, { $0.currencyCode = $1 }), Property("amount", { $0.amount }, { $0.amount = $1 })])
}

extension SemanticTags.Location: JSONModel {
    package static let blank = Self(latitude: 0, longitude: 0)
    package static let schema = Schema<Self>([Property(required: "latitude", { $0.latitude }, { $0.latitude = $1 }), Property(required: "longitude", { $0.longitude }, { $0.longitude = $1 })])
}

extension SemanticTags.PersonNameComponents: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("givenName", { $0.givenName }, { $0.givenName = $1 }), Property("familyName", { $0.familyName }, { $0.familyName = $1 }), Property("middleName", { $0.middleName }, { $0.middleName = $1 }),
        Property("namePrefix", { $0.namePrefix }, { $0.namePrefix = $1 }), Property("nameSuffix", { $0.nameSuffix }, { $0.nameSuffix = $1 }), Property("nickname", { $0.nickname }, { $0.nickname = $1 }),
        Property("phoneticRepresentation", { $0.phoneticRepresentation }, { $0.phoneticRepresentation = $1 }),
    ])
}

extension SemanticTags.Seat: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("seatSection", { $0.seatSection }, { $0.seatSection = $1 }), Property("seatRow", { $0.seatRow }, { $0.seatRow = $1 }), Property("seatNumber", { $0.seatNumber }, { $0.seatNumber = $1 }),
        Property("seatIdentifier", { $0.seatIdentifier }, { $0.seatIdentifier = $1 }), Property("seatType", { $0.seatType }, { $0.seatType = $1 }),
        Property("seatDescription", { $0.seatDescription }, { $0.seatDescription = $1 }), Property("seatAisle", { $0.seatAisle }, { $0.seatAisle = $1 }),
        Property("seatLevel", { $0.seatLevel }, { $0.seatLevel = $1 }), Property("seatSectionColor", { $0.seatSectionColor }, { $0.seatSectionColor = $1 }),
    ])
}

extension SemanticTags.WifiNetwork: JSONModel {
    package static let blank = Self(ssid: "", password: "")
    package static let schema = Schema<Self>([Property(required: "ssid", { $0.ssid }, { $0.ssid = $1 }), Property(required: "password", { $0.password }, { $0.password = $1 })])
}

extension SemanticTags.EventDateInfo: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("date", { $0.date }, { $0.date = $1 }), Property("timeZone", { $0.timeZone }, { $0.timeZone = $1 }), Property("ignoreTimeComponents", { $0.ignoreTimeComponents }, { $0.ignoreTimeComponents = $1 }),
        Property("unannounced", { $0.unannounced }, { $0.unannounced = $1 }), Property("undetermined", { $0.undetermined }, { $0.undetermined = $1 }),
    ])
}
