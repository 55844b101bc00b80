import Foundation
import PassModel

/// The one JSON coding of wire values, on the server and in the CLI.
///
/// Keys are sorted and `/` is not escaped, so a body is byte-for-byte what the hand-built trees of
/// earlier versions wrote (``JSONValue/serialized(sortedKeys:)``), and dates are ISO 8601 in UTC
/// without fractions (`2027-01-15T08:00:00Z`), as `Date.formatted(.iso8601)` writes them.
public enum WireJSON {
    /// An encoder with the wire's settings (a new one each time: a `JSONEncoder` is a mutable class).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder that reads what ``encoder()`` writes.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `value`'s JSON bytes.
    public static func encode(_ value: some Encodable) throws -> Data {
        try encoder().encode(value)
    }

    /// `value` as a JSON tree, for the places that still merge members into a body they did not
    /// build (a problem's extra members).
    public static func tree(_ value: some Encodable) throws -> JSONValue {
        try JSONValue.parse(encode(value))
    }
}
