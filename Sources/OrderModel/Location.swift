import PassModel

/// Coordinates of a pick-up place (`Location`), for when its address is not precise enough for Maps.
public struct Location: Sendable, Hashable {
    /// Degrees, −90…90.
    public var latitude: Double
    /// Degrees, −180…180.
    public var longitude: Double
    /// Metres above sea level.
    public var altitude: Double?
    /// Keys OrderModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates a location.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

extension Location: JSONModel {
    package static let blank = Self(latitude: 0, longitude: 0)
    package static let schema = Schema<Self>([
        Property(required: "latitude", { $0.latitude }, { $0.latitude = $1 }),
        Property(required: "longitude", { $0.longitude }, { $0.longitude = $1 }),
        Property("altitude", { $0.altitude }, { $0.altitude = $1 }),
    ])
}
