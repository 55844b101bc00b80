import PassModel

/// A JSON string of which only some spellings are valid (URLs, file paths, durations, currency codes):
/// a value type that can only hold a valid spelling, decoded with one error message per type.
///
/// One implementation of the JSON side for all of them, so a new value type only says what it accepts.
package protocol ValidatedString: JSONCodable {
    /// The value for a valid spelling, `nil` otherwise.
    init?(_ text: String)
    /// The spelling, written back unchanged.
    var text: String { get }
    /// What a valid value looks like, for the decoding error (`an ISO 8601 duration like PT30M`).
    static var expected: String { get }
}

extension ValidatedString {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .string(let text) = json, let value = Self(text) else { throw .mismatch(path, expected: Self.expected, found: json) }
        self = value
    }

    package func write(to writer: inout JSONWriter) { writer.string(text) }
}
