/// The field groups of one style key (`boardingPass`, `storeCard`, `posterGeneric`...).
///
/// Groups are plain arrays: an absent group and an empty one mean the same to Wallet, and empty
/// groups are not written.
public struct PassFields: Sendable, Hashable {
    /// The kind of a group; its JSON key is the raw value.
    public enum Group: String, Sendable, Hashable, CaseIterable {
        case headerFields, primaryFields, secondaryFields, auxiliaryFields, backFields, additionalInfoFields, footerFields
    }

    /// Top right; visible in the stacked Wallet list, so keep it short.
    public var headerFields: [Field] = []
    /// The most important information, drawn large.
    public var primaryFields: [Field] = []
    /// Below the primary fields.
    public var secondaryFields: [Field] = []
    /// Below the secondary fields (above them on boarding passes).
    public var auxiliaryFields: [Field] = []
    /// On the back (details screen); not shown on Apple Watch.
    public var backFields: [Field] = []
    /// Event-guide and poster detail fields (iOS 18+).
    public var additionalInfoFields: [Field] = []
    /// Poster generic footer fields (iOS 27+).
    public var footerFields: [Field] = []
    /// Required on `boardingPass`, invalid on every other style.
    public var transitType: TransitType?
    /// Keys PassModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates empty groups.
    public init(transitType: TransitType? = nil) {
        self.transitType = transitType
    }

    /// The fields of one group.
    public subscript(group: Group) -> [Field] {
        get {
            switch group {
            case .headerFields: return headerFields
            case .primaryFields: return primaryFields
            case .secondaryFields: return secondaryFields
            case .auxiliaryFields: return auxiliaryFields
            case .backFields: return backFields
            case .additionalInfoFields: return additionalInfoFields
            case .footerFields: return footerFields
            }
        }
    }
}

extension PassFields: JSONModel {
    package static let blank = PassFields()

    package static let schema = Schema<PassFields>([
        Property("headerFields", { $0.headerFields }, { $0.headerFields = $1 }),
        Property("primaryFields", { $0.primaryFields }, { $0.primaryFields = $1 }),
        Property("secondaryFields", { $0.secondaryFields }, { $0.secondaryFields = $1 }),
        Property("auxiliaryFields", { $0.auxiliaryFields }, { $0.auxiliaryFields = $1 }),
        Property("backFields", { $0.backFields }, { $0.backFields = $1 }),
        Property("additionalInfoFields", { $0.additionalInfoFields }, { $0.additionalInfoFields = $1 }),
        Property("footerFields", { $0.footerFields }, { $0.footerFields = $1 }),
        Property("transitType", { $0.transitType }, { $0.transitType = $1 }),
    ])
}
