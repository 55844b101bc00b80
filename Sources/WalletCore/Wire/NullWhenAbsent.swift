/// An optional member written as `null` when absent, for members clients expect to see either way
/// (`heldUntil`, `etaSeconds`…): the synthesized `Encodable` of a plain optional leaves the key out.
@propertyWrapper
public struct NullWhenAbsent<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The value, `nil` when absent.
    public var wrappedValue: Value?

    /// Wraps a value that may be absent.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Reads `null` as absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Writes `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key reads as absent too, as it does for a plain optional (the synthesized
    /// `Decodable` would otherwise throw `keyNotFound` for a wrapped member).
    public func decode<Value>(_ type: NullWhenAbsent<Value>.Type, forKey key: Key) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
