import Foundation

/// A JSON document as a tree of values, the form templates are rendered on before a pass is typed.
///
/// Numbers are `Double` (like JavaScript and Wallet), but integral values are written back as
/// integers (`1`, never `1.0`), so a round trip never changes how a number looks.
/// Objects keep their key order (see ``JSONObject``) so rendering is deterministic.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The deepest nesting ``parse(_:)`` accepts; deeper input is rejected instead of exhausting the stack.
    public static let maximumDepth = 64

    /// Parses UTF-8 JSON bytes. Rejects invalid UTF-8, trailing content and nesting deeper than
    /// ``maximumDepth``, so hostile input fails with an error rather than a crash.
    public static func parse(_ data: Data) throws(PassDecodingError) -> JSONValue {
        var parser = JSONParser(maximumDepth: maximumDepth)
        return try parser.parse(data)
    }

    /// The JSON bytes of this value: UTF-8, no BOM, `/` unescaped, integral numbers as integers.
    /// `sortedKeys` gives byte-identical output for equal values whatever their key order.
    public func serialized(sortedKeys: Bool) -> Data {
        var writer = JSONWriter()
        writer.value(self, sortedKeys: sortedKeys)
        return writer.data
    }

    /// What kind of value this is, for messages: "null", "a boolean", "a number", "a string",
    /// "an array", "an object".
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A short phrase naming this value for error messages ("the number 123", "an object").
    var phrase: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "the boolean \(value)"
        case .number(let value):
            var writer = JSONWriter()
            writer.number(value)
            return "the number \(String(decoding: writer.bytes, as: UTF8.self))"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "the string \"\(shown)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue: Codable {
    /// Decodes from any `Decoder`, so the tree can sit inside other `Codable` types.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode(JSONObject.self))
        }
    }

    /// Encodes into any `Encoder`, preserving the case. `-0` is written as `0`, as
    /// ``serialized(sortedKeys:)`` writes it, so a tree inside a `Codable` body looks the same.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value == 0 ? 0 : value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
