import PassModel

/// Reads and writes a JSON tree at a path in PassModel's notation (`storeCard.primaryFields[0].value`),
/// the notation every finding's location uses.
enum JSONTree {
    /// One step of a path.
    enum Step: Hashable {
        case key(String)
        case index(Int)
    }

    /// Splits `a.b[0].c` into steps; keys never contain `.` or `[` in pass.json.
    static func steps(_ path: String) -> [Step] {
        var steps: [Step] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: true) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket > rest.startIndex { steps.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) { steps.append(.index(index)) }
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                steps.append(.key(String(rest)))
            }
        }
        return steps
    }

    /// The value at `path`, `nil` when absent.
    static func value(at path: String, in root: JSONValue) -> JSONValue? {
        var current = root
        for step in steps(path) {
            switch (step, current) {
            case (.key(let key), .object(let object)):
                guard let next = object[key] else { return nil }
                current = next
            case (.index(let index), .array(let array)):
                guard array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Replaces (or adds, or with `nil` removes) the value at `path`; a path through missing
    /// containers changes nothing.
    static func set(_ value: JSONValue?, at path: String, in root: inout JSONValue) {
        set(value, steps: steps(path)[...], in: &root)
    }

    private static func set(_ value: JSONValue?, steps: ArraySlice<Step>, in node: inout JSONValue) {
        guard let step = steps.first else {
            if let value { node = value }
            return
        }
        let rest = steps.dropFirst()
        switch (step, node) {
        case (.key(let key), .object(var object)):
            if rest.isEmpty {
                object[key] = value
            } else if var child = object[key] {
                set(value, steps: rest, in: &child)
                object[key] = child
            }
            node = .object(object)
        case (.index(let index), .array(var array)) where array.indices.contains(index):
            if rest.isEmpty, value == nil {
                array.remove(at: index)
            } else {
                set(value, steps: rest, in: &array[index])
            }
            node = .array(array)
        default:
            break
        }
    }

    /// The last key of a path (`value` for `storeCard.primaryFields[0].value`).
    static func lastKey(_ path: String) -> String? {
        if case .key(let key)? = steps(path).last { return key }
        return nil
    }

    /// The path of the object holding the last key (`storeCard.primaryFields[0]`).
    static func parent(_ path: String) -> String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    /// `"key": value` as JSON text, the form Before and After quote.
    static func member(_ key: String, _ value: JSONValue) -> String {
        "\(text(.string(key))): \(text(value))"
    }

    /// Compact JSON text of a value, with `, ` between members so it reads like the template.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements): return "[" + elements.map(text).joined(separator: ", ") + "]"
        case .object(let object): return "{" + object.map { member($0.key, $0.value) }.joined(separator: ", ") + "}"
        default: return String(decoding: value.serialized(sortedKeys: false), as: UTF8.self)
        }
    }
}
