/// The header fields of a request or response, in order, duplicates kept.
///
/// Names compare case-insensitively (RFC 9110 §5.1) so `headers["authorization"]` finds `Authorization`;
/// duplicates are kept because some fields (e.g. `Set-Cookie`) cannot be folded into one line.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header line.
    public struct Field: Sendable, Equatable {
        /// The name as it was given; lookups ignore its case.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String

        /// Creates a field; the name keeps its spelling for the wire.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates headers from fields in wire order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from a literal, e.g. `["Content-Type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of a field, or `nil`; setting replaces every field of that name (or removes them with `nil`).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of a field, in the order received, for fields that may repeat.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Iterates the fields in wire order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension String {
    /// ASCII case-insensitive equality, which is what header names and media types need; byte by
    /// byte, since it runs for every header lookup of every request.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { Self.asciiLowercase($0) == Self.asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

extension Substring {
    /// Without the spaces and tabs around it (a header value's optional whitespace, RFC 9110 §5.6.3);
    /// byte by byte, since Foundation's `trimmingCharacters` showed in the profile of every
    /// authenticated request.
    public var trimmingHTTPWhitespace: Substring {
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }), let last = bytes.lastIndex(where: { !isWhitespace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
