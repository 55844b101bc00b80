import Foundation
import PassModel

/// JSON as a `Sendable` value the tests can build with literals, read with subscripts and keep
/// across `await`s (Foundation's `[String: Any]` is not `Sendable`); parsed and written by PassModel.
enum JSON: Sendable, Equatable, CustomStringConvertible, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Dictionary(elements) { $1 }) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Parses bytes; throws for anything that is not JSON.
    init(parsing data: Data) throws {
        self = JSON(try JSONValue.parse(data))
    }

    private init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(JSON.init))
        case .object(let members): self = .object(Dictionary(members.map { ($0.key, JSON($0.value)) }) { $1 })
        }
    }

    private var value: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let values): .array(values.map(\.value))
        case .object(let members): .object(JSONObject(members.map { (key: $0.key, value: $0.value.value) }))
        }
    }

    /// The value as JSON bytes (keys sorted).
    var data: Data { value.serialized(sortedKeys: true) }

    var description: String { String(decoding: data, as: UTF8.self) }

    /// A member; `.null` when absent or when this is not an object. Setting one on an object adds or replaces it.
    subscript(key: String) -> JSON {
        get { if case .object(let members) = self { members[key] ?? .null } else { .null } }
        set {
            guard case .object(var members) = self else { return }
            members[key] = newValue
            self = .object(members)
        }
    }

    /// An element; `.null` when out of range or not an array.
    subscript(index: Int) -> JSON {
        if case .array(let values) = self, values.indices.contains(index) { values[index] } else { .null }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [JSON]? { if case .array(let values) = self { values } else { nil } }
    var object: [String: JSON]? { if case .object(let members) = self { members } else { nil } }
    var isNull: Bool { self == .null }
}
