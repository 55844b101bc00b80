/// What a field shows: text, a number, or a date. Wallet formats numbers and dates for each reader's
/// locale (`numberStyle`, `currencyCode`, `dateStyle`), so the distinction matters.
///
/// A JSON string that is a valid W3C date decodes as `.date`; one that only looks like a date stays
/// `.string` (the linter points those out). Integral numbers are written as integers.
public enum FieldValue: Sendable, Hashable {
    /// Text (localizable through `pass.strings`).
    case string(String)
    /// A number, formatted by `numberStyle` or `currencyCode`.
    case number(Double)
    /// A date, formatted by `dateStyle`/`timeStyle`.
    case date(W3CDate)
}

extension FieldValue: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        switch json {
        case .string(let text): self = W3CDate(text).map(FieldValue.date) ?? .string(text)
        case .number(let number): self = .number(number)
        default: throw .mismatch(path, expected: "a string, number or W3C date", found: json)
        }
    }

    package func write(to writer: inout JSONWriter) {
        switch self {
        case .string(let text): writer.string(text)
        case .number(let number): writer.number(number)
        case .date(let date): writer.string(date.description)
        }
    }
}
