/// One label/value pair on the front or back of a pass (Apple's `PassFieldContent`).
///
/// Formatting keys only apply to matching values (`numberStyle`/`currencyCode` to numbers, date
/// styles to dates); ``Pass/validate()`` reports the mismatches Wallet rejects.
public struct Field: Sendable, Hashable {
    /// Identifier unique across all field groups of the style; also the `pass.strings` lookup for updates.
    public var key: String
    /// What the field shows.
    public var value: FieldValue
    /// Caption above the value (localizable).
    public var label: String?
    /// Replaces `value` where supported; only `<a href>` markup is allowed.
    public var attributedValue: FieldValue?
    /// Lock-screen notice on update; must contain `%@`, which Wallet replaces with the new value.
    public var changeMessage: String?
    /// Alignment; invalid on primary and back fields.
    public var textAlignment: TextAlignment?
    /// Date part format, for date values.
    public var dateStyle: DateStyle?
    /// Time part format, for date values.
    public var timeStyle: DateStyle?
    /// Show the date relative to now ("in 2 hours"); no effect on relevance.
    public var isRelative: Bool?
    /// Show the date in its own zone instead of the device's.
    public var ignoresTimeZone: Bool?
    /// Number format, for number values.
    public var numberStyle: NumberStyle?
    /// ISO 4217 code that formats a number value as money.
    public var currencyCode: String?
    /// What to link in a back field; back fields only.
    public var dataDetectorTypes: [DataDetectorType]?
    /// Event-ticket auxiliary fields only: 0 or 1 (the second row).
    public var row: Int?
    /// Machine-readable meaning of this field.
    public var semantics: SemanticTags?
    /// Keys PassModel does not know, kept so newer Apple keys survive a round trip.
    public var unknownKeys: JSONObject = [:]

    /// Creates a field with its two required keys.
    public init(key: String, value: FieldValue, label: String? = nil) {
        self.key = key
        self.value = value
        self.label = label
    }
}

extension Field: JSONModel {
    package static let blank = Field(key: "", value: .string(""))

    package static let schema = Schema<Field>([
        Property(required: "key", { $0.key }, { $0.key = $1 }),
        Property(required: "value", { $0.value }, { $0.value = $1 }),
        Property("label", { $0.label }, { $0.label = $1 }),
        Property("attributedValue", { $0.attributedValue }, { $0.attributedValue = $1 }),
        Property("changeMessage", { $0.changeMessage }, { $0.changeMessage = $1 }),
        Property("textAlignment", { $0.textAlignment }, { $0.textAlignment = $1 }),
        Property("dateStyle", { $0.dateStyle }, { $0.dateStyle = $1 }),
        Property("timeStyle", { $0.timeStyle }, { $0.timeStyle = $1 }),
        Property("isRelative", { $0.isRelative }, { $0.isRelative = $1 }),
        Property("ignoresTimeZone", { $0.ignoresTimeZone }, { $0.ignoresTimeZone = $1 }),
        Property("numberStyle", { $0.numberStyle }, { $0.numberStyle = $1 }),
        Property("currencyCode", { $0.currencyCode }, { $0.currencyCode = $1 }),
        Property("dataDetectorTypes", { $0.dataDetectorTypes }, { $0.dataDetectorTypes = $1 }),
        Property("row", { $0.row }, { $0.row = $1 }),
        Property("semantics", { $0.semantics }, { $0.semantics = $1 }),
    ])
}
