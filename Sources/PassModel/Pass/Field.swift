/// One label/value pair on the front or back of a pass (Apple's `PassFieldContent`, §2.9).
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
    static let blank = Field(key: "", value: .string(""))

    static let schema = Schema<Field>([
        Property(required: "key", \.key),
        Property(required: "value", \.value),
        Property("label", \.label),
        Property("attributedValue", \.attributedValue),
        Property("changeMessage", \.changeMessage),
        Property("textAlignment", \.textAlignment),
        Property("dateStyle", \.dateStyle),
        Property("timeStyle", \.timeStyle),
        Property("isRelative", \.isRelative),
        Property("ignoresTimeZone", \.ignoresTimeZone),
        Property("numberStyle", \.numberStyle),
        Property("currencyCode", \.currencyCode),
        Property("dataDetectorTypes", \.dataDetectorTypes),
        Property("row", \.row),
        Property("semantics", \.semantics),
    ])
}
