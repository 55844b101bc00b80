/// An action card on an iOS 27 pass (`featuredActions`, at most 2, Apple's Pass reference).
///
/// `type` stays a string: Apple's list (`viewSchedule`, `watchTrailer`, `call`, `order`...) is
/// longer than Apple's reference lists.
public struct FeaturedAction: Sendable, Hashable {
    /// Identifier of the action.
    public var identifier: String
    /// Kind of action, e.g. `viewSchedule`.
    public var type: String
    /// What the card opens.
    public var url: String
    /// Keys PassModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates an action.
    public init(identifier: String, type: String, url: String) {
        self.identifier = identifier
        self.type = type
        self.url = url
    }
}

extension FeaturedAction: JSONModel {
    package static let blank = Self(identifier: "", type: "", url: "")
    package static let schema = Schema<Self>([
        Property(required: "identifier", { $0.identifier }, { $0.identifier = $1 }), Property(required: "type", { $0.type }, { $0.type = $1 }), Property(required: "url", { $0.url }, { $0.url = $1 }),
    ])
}
