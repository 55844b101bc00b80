/// A model type described by a table of its JSON keys: the single source for decoding, encoding and
/// recognising unknown keys, so the three can never disagree. `package` so OrderModel's types are
/// described the same way.
package protocol JSONModel: JSONCodable {
    static var schema: Schema<Self> { get }
    /// A value with every property at its default, filled in by decoding.
    static var blank: Self { get }
    /// Members the schema does not know, kept for round trips.
    var unknownKeys: JSONObject { get set }
}

/// One JSON key of a model: how to decode it into the value and how to write it out.
package struct Property<Root>: Sendable {
    package typealias Decode = @Sendable (inout Root, JSONValue, JSONPath, inout [ValidationIssue]) throws(PassDecodingError) -> Void
    package typealias Encode = @Sendable (Root, inout JSONWriter) -> Void

    package let key: String
    package let isRequired: Bool
    package let decode: Decode
    package let encode: Encode

    private init(key: String, isRequired: Bool, decode: @escaping Decode, encode: @escaping Encode) {
        self.key = key
        self.isRequired = isRequired
        self.decode = decode
        self.encode = encode
    }

    /// An optional key: absent decodes to `nil`, `nil` is not written.
    /// Accessors are closures rather than key paths: key-path application goes through the runtime
    /// and dominated encoding time.
    package init<Value: JSONCodable>(_ key: String, _ get: @escaping @Sendable (Root) -> Value?,
                             _ set: @escaping @Sendable (inout Root, Value) -> Void) {
        self.init(key: key, isRequired: false, decode: { root, json, path, issues throws(PassDecodingError) in
            set(&root, try Value(json: json, at: path, issues: &issues))
        }, encode: { root, writer in
            guard let value = get(root) else { return }
            writer.key(key)
            value.write(to: &writer)
        })
    }

    /// A list key: absent decodes to `[]`, and an empty list is not written.
    package init<Element: JSONCodable>(_ key: String, _ get: @escaping @Sendable (Root) -> [Element],
                               _ set: @escaping @Sendable (inout Root, [Element]) -> Void) {
        self.init(key: key, isRequired: false, decode: { root, json, path, issues throws(PassDecodingError) in
            set(&root, try [Element](json: json, at: path, issues: &issues))
        }, encode: { root, writer in
            let value = get(root)
            guard !value.isEmpty else { return }
            writer.key(key)
            value.write(to: &writer)
        })
    }

    /// A required key: decoding fails when it is absent; it is always written.
    package init<Value: JSONCodable>(required key: String, _ get: @escaping @Sendable (Root) -> Value,
                             _ set: @escaping @Sendable (inout Root, Value) -> Void) {
        self.init(key: key, isRequired: true, decode: { root, json, path, issues throws(PassDecodingError) in
            set(&root, try Value(json: json, at: path, issues: &issues))
        }, encode: { root, writer in
            writer.key(key)
            get(root).write(to: &writer)
        })
    }

    /// A key of a nested value whose keys sit flat in this object (the event-guide URLs at the top level).
    package init<Inner>(_ property: Property<Inner>, through get: @escaping @Sendable (Root) -> Inner,
                _ set: @escaping @Sendable (inout Root, Inner) -> Void) {
        self.init(key: property.key, isRequired: property.isRequired, decode: { root, json, path, issues throws(PassDecodingError) in
            var inner = get(root)
            try property.decode(&inner, json, path, &issues)
            set(&root, inner)
        }, encode: { root, writer in
            property.encode(get(root), &writer)
        })
    }
}

/// The key table of one model, sorted by key so encoding emits sorted keys without sorting.
package struct Schema<Root>: Sendable {
    package let properties: [Property<Root>]
    private let indexByKey: [String: Int]
    package let requiredKeys: [String]

    package init(_ properties: [Property<Root>]) {
        self.properties = properties.sorted { $0.key < $1.key }
        var index: [String: Int] = [:]
        for (position, property) in self.properties.enumerated() {
            precondition(index[property.key] == nil, "duplicate schema key \(property.key)")
            index[property.key] = position
        }
        indexByKey = index
        requiredKeys = self.properties.filter(\.isRequired).map(\.key)
    }

    package func property(_ key: String) -> Property<Root>? {
        indexByKey[key].map { properties[$0] }
    }
}

extension JSONModel {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .object(let object) = json else { throw .mismatch(path, expected: "an object", found: json) }
        let schema = Self.schema
        let base = path.rendered
        var result = Self.blank
        var requiredSeen = 0
        for (key, value) in object {
            if let property = schema.property(key) {
                // A bad value is recorded and decoding goes on, so one run reports every problem.
                do {
                    try property.decode(&result, value, .member(key, of: base), &issues)
                } catch {
                    issues.append(error.issue)
                }
                if property.isRequired { requiredSeen += 1 }
            } else {
                result.unknownKeys.appendUnchecked(key, value)
                issues.append(ValidationIssue(
                    severity: .warning, path: joinPath(base, key), rule: "unknownKey",
                    message: "unknown key \"\(key)\"; kept as is, but Wallet may ignore it (check the spelling)"))
            }
        }
        if requiredSeen < schema.requiredKeys.count {
            for missing in schema.requiredKeys where object[missing] == nil {
                issues.append(PassDecodingError.invalidValue(path: joinPath(base, missing), message: "required key is missing").issue)
            }
        }
        self = result
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        let properties = Self.schema.properties
        if unknownKeys.isEmpty {
            for property in properties { property.encode(self, &writer) }
        } else {
            // Merge the sorted schema with the sorted unknown members, so output stays key-sorted.
            let extra = unknownKeys.sortedEntries
            var next = 0
            for property in properties {
                while next < extra.count, extra[next].key < property.key {
                    writer.key(extra[next].key)
                    writer.value(extra[next].value, sortedKeys: true)
                    next += 1
                }
                property.encode(self, &writer)
            }
            for entry in extra[next...] {
                writer.key(entry.key)
                writer.value(entry.value, sortedKeys: true)
            }
        }
        writer.endObject()
    }
}
