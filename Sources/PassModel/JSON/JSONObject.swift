/// A JSON object that remembers key order, so templates render and serialize deterministically.
///
/// Equality ignores order (two objects with the same members are equal), because JSON gives key
/// order no meaning and a pass encoded with sorted keys must still equal the one it came from.
/// Keys are unique: setting an existing key replaces its value in place.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Key = String
    public typealias Value = JSONValue

    /// The members in insertion order.
    public private(set) var entries: [(key: String, value: JSONValue)]

    /// An empty object.
    public init() {
        entries = []
    }

    /// Builds an object from members in order; a repeated key keeps its last value, as parsers do.
    public init(_ members: some Sequence<(key: String, value: JSONValue)>) {
        entries = []
        for member in members { self[member.key] = member.value }
    }

    /// Literal syntax for tests and templates, keeping the written order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }

    /// The value for `key`, or `nil`; assigning `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case let (index?, value?): entries[index].value = value
            case let (index?, nil): entries.remove(at: index)
            case let (nil, value?): entries.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Appends a member whose key the caller knows is new (the parser's fast path).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        entries.append((key: key, value: value))
    }

    /// The number of members.
    public var count: Int { entries.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { entries.isEmpty }
    /// The keys in order.
    public var keys: [String] { entries.map(\.key) }

    /// Iterates members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        entries.makeIterator()
    }

    /// Members sorted by key (the encoding order of Passwright's output).
    var sortedEntries: [(key: String, value: JSONValue)] {
        entries.sorted { $0.key < $1.key }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        return lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var combined = 0
        for entry in entries {
            var member = Hasher()
            member.combine(entry.key)
            member.combine(entry.value)
            combined &+= member.finalize()
        }
        hasher.combine(entries.count)
        hasher.combine(combined)
    }
}

extension JSONObject: Codable {
    private struct CodingName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes from a keyed container (member order is whatever the decoder reports).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingName.self)
        self.init()
        for key in container.allKeys {
            self[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
    }

    /// Encodes each member under its key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingName.self)
        for entry in entries {
            try container.encode(entry.value, forKey: CodingName(stringValue: entry.key))
        }
    }
}
