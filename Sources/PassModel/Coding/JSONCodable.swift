/// A type PassModel reads from a ``JSONValue`` (with the path for errors) and writes with ``JSONWriter``.
///
/// Hand-written rather than `Codable`: it reports exact JSON paths, keeps unknown keys, and writes
/// bytes directly, which keeps encoding within the batch budget.
/// `package` so OrderModel's `order.json` types reuse the same machinery instead of a copy, without
/// making it API of the PassModel library.
package protocol JSONCodable: SendableMetatype {
    init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError)
    func write(to writer: inout JSONWriter)
}

extension String: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .string(let value) = json else { throw .mismatch(path, expected: "a string", found: json) }
        self = value
    }

    package func write(to writer: inout JSONWriter) { writer.string(self) }
}

extension Bool: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .bool(let value) = json else { throw .mismatch(path, expected: "a boolean", found: json) }
        self = value
    }

    package func write(to writer: inout JSONWriter) { writer.bool(self) }
}

extension Double: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .number(let value) = json else { throw .mismatch(path, expected: "a number", found: json) }
        self = value
    }

    package func write(to writer: inout JSONWriter) { writer.number(self) }
}

extension Int: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .number(let value) = json, value.rounded(.towardZero) == value, let integer = Int(exactly: value) else {
            throw .mismatch(path, expected: "an integer", found: json)
        }
        self = integer
    }

    package func write(to writer: inout JSONWriter) { writer.integer(self) }
}

extension JSONValue: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        self = json
    }

    package func write(to writer: inout JSONWriter) { writer.value(self, sortedKeys: true) }
}

extension JSONObject: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .object(let value) = json else { throw .mismatch(path, expected: "an object", found: json) }
        self = value
    }

    package func write(to writer: inout JSONWriter) { writer.value(.object(self), sortedKeys: true) }
}

extension Array: JSONCodable where Element: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .array(let items) = json else { throw .mismatch(path, expected: "an array", found: json) }
        let base = path.rendered
        self.init()
        reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do {
                append(try Element(json: item, at: .element(index, of: base), issues: &issues))
            } catch {
                issues.append(error.issue)
            }
        }
    }

    package func write(to writer: inout JSONWriter) {
        writer.beginArray()
        for element in self { element.write(to: &writer) }
        writer.endArray()
    }
}

/// A closed set of Apple strings (barcode formats, transit types...). Unknown spellings are decoding
/// errors naming the accepted ones, since Wallet rejects them. `package` for OrderModel's enumerations.
package protocol JSONStringEnum: JSONCodable, RawRepresentable<String>, CaseIterable {}

extension JSONStringEnum {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .string(let raw) = json, let value = Self(rawValue: raw) else {
            let choices = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw .mismatch(path, expected: "one of \(choices)", found: json)
        }
        self = value
    }

    package func write(to writer: inout JSONWriter) { writer.string(rawValue) }
}
