extension Pass {
    /// A place that puts the pass on the lock screen (at most 10 per pass).
    public struct Location: Sendable, Hashable {
        /// Degrees, -90...90.
        public var latitude: Double
        /// Degrees, -180...180.
        public var longitude: Double
        /// Metres.
        public var altitude: Double?
        /// Lock-screen text shown near this place.
        public var relevantText: String?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a location.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil, relevantText: String? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.relevantText = relevantText
        }
    }

    /// An iBeacon that puts the pass on the lock screen.
    public struct Beacon: Sendable, Hashable {
        /// The beacon's UUID.
        public var proximityUUID: String
        /// 16-bit unsigned, 0–65535.
        public var major: Int?
        /// 16-bit unsigned, 0–65535.
        public var minor: Int?
        /// Lock-screen text shown near this beacon.
        public var relevantText: String?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// Creates a beacon.
        public init(proximityUUID: String, major: Int? = nil, minor: Int? = nil, relevantText: String? = nil) {
            self.proximityUUID = proximityUUID
            self.major = major
            self.minor = minor
            self.relevantText = relevantText
        }
    }

    /// A time the pass is relevant (`Pass.RelevantDates`, iOS 18+): an interval, or a single date
    /// from which Wallet derives one.
    ///
    /// iOS 18 named the single date `relevantDate`, iOS 26 `date`: either is read and both are written.
    public struct RelevantDate: Sendable, Hashable {
        /// Start of an interval; needs `endDate`.
        public var startDate: W3CDate?
        /// End of an interval.
        public var endDate: W3CDate?
        /// A single relevant moment.
        public var date: W3CDate?
        /// Keys PassModel does not know, kept for round trips.
        public var unknownKeys: JSONObject = [:]

        /// An interval.
        public init(startDate: W3CDate, endDate: W3CDate) {
            self.startDate = startDate
            self.endDate = endDate
        }

        /// A single date.
        public init(date: W3CDate) {
            self.date = date
        }

        fileprivate init() {}
    }
}

extension Pass.Location: JSONModel {
    package static let blank = Self(latitude: 0, longitude: 0)
    package static let schema = Schema<Self>([
        Property(required: "latitude", { $0.latitude }, { $0.latitude = $1 }), Property(required: "longitude", { $0.longitude }, { $0.longitude = $1 }),
        Property("altitude", { $0.altitude }, { $0.altitude = $1 }), Property("relevantText", { $0.relevantText }, { $0.relevantText = $1 }),
    ])
}

extension Pass.Beacon: JSONModel {
    package static let blank = Self(proximityUUID: "")
    package static let schema = Schema<Self>([
        Property(required: "proximityUUID", { $0.proximityUUID }, { $0.proximityUUID = $1 }), Property("major", { $0.major }, { $0.major = $1 }),
        Property("minor", { $0.minor }, { $0.minor = $1 }), Property("relevantText", { $0.relevantText }, { $0.relevantText = $1 }),
    ])
}

extension Pass.RelevantDate: JSONModel {
    package static let blank = Self()
    package static let schema = Schema<Self>([
        Property("startDate", { $0.startDate }, { $0.startDate = $1 }), Property("endDate", { $0.endDate }, { $0.endDate = $1 }),
        Property("date", { $0.date }, { $0.date = $1 }), Property("relevantDate", { $0.date }, { $0.date = $1 }),
    ])
}
