import Foundation
import PassModel

/// `pass.json` of a template, prepared once: subtrees without placeholders are kept as finished values,
/// and strings with placeholders are pre-split, so rendering a record only walks what can change.
indirect enum TemplateNode: Sendable {
    case literal(JSONValue)
    case interpolated([Placeholder.Piece], path: String)
    case object([(key: String, node: TemplateNode)])
    case array([TemplateNode])

    /// Prepares `value`, found at JSON path `path`; `file` names the template file in errors.
    init(_ value: JSONValue, path: String = "", file: String) throws(PassCompilerError) {
        switch value {
        case .string(let string):
            do {
                if let pieces = try Placeholder.pieces(of: string) {
                    self = .interpolated(pieces, path: path)
                } else {
                    self = .literal(value)
                }
            } catch {
                throw .invalidTemplate(file: file, path: path, message: error.message)
            }
        case .object(let object):
            var members: [(key: String, node: TemplateNode)] = []
            var hasPlaceholder = false
            for (key, member) in object {
                let node = try TemplateNode(member, path: path.isEmpty ? key : "\(path).\(key)", file: file)
                if case .literal = node {} else { hasPlaceholder = true }
                members.append((key, node))
            }
            self = hasPlaceholder ? .object(members) : .literal(value)
        case .array(let elements):
            var nodes: [TemplateNode] = []
            var hasPlaceholder = false
            for (index, element) in elements.enumerated() {
                let node = try TemplateNode(element, path: "\(path)[\(index)]", file: file)
                if case .literal = node {} else { hasPlaceholder = true }
                nodes.append(node)
            }
            self = hasPlaceholder ? .array(nodes) : .literal(value)
        default:
            self = .literal(value)
        }
    }

    /// Every placeholder path used, for documentation and linting.
    var placeholders: [String] { placeholderUses.map(\.path) }

    /// Fills the placeholders from `record`. A string that is exactly one placeholder takes the record
    /// value's own JSON type; placeholders inside text are formatted as text. Because this works on the
    /// parsed tree, no record value can break or inject JSON, whatever quotes or braces it contains.
    func render(_ record: JSONValue, recordName: String) throws(PassCompilerError) -> JSONValue {
        switch self {
        case .literal(let value):
            return value
        case .interpolated(let pieces, let path):
            if pieces.count == 1, case .placeholder(let placeholder) = pieces[0] {
                return try Self.value(of: placeholder, at: path, in: record, recordName: recordName)
            }
            var text = ""
            for piece in pieces {
                switch piece {
                case .text(let literal):
                    text += literal
                case .placeholder(let placeholder):
                    let value = try Self.value(of: placeholder, at: path, in: record, recordName: recordName)
                    switch value {
                    case .string(let string): text += string
                    case .number(let number): text += Self.format(number)
                    case .bool(let bool): text += bool ? "true" : "false"
                    case .null, .array, .object:
                        throw .invalidRecord(record: recordName, message: "{{\(placeholder.path)}} is used inside text at pass.json \(path) but its value is \(value.kind), not a string, number or boolean")
                    }
                }
            }
            return .string(text)
        case .object(let members):
            // Every member is rendered even after one fails, so a record learns all it lacks at once.
            var object = JSONObject()
            var problems: [PassCompilerError] = []
            for (key, node) in members {
                do {
                    object[key] = try node.render(record, recordName: recordName)
                } catch {
                    problems.append(error)
                }
            }
            if !problems.isEmpty { throw .combining(problems) }
            return .object(object)
        case .array(let nodes):
            var values: [JSONValue] = []
            var problems: [PassCompilerError] = []
            values.reserveCapacity(nodes.count)
            for node in nodes {
                do {
                    values.append(try node.render(record, recordName: recordName))
                } catch {
                    problems.append(error)
                }
            }
            if !problems.isEmpty { throw .combining(problems) }
            return .array(values)
        }
    }

    private static func value(of placeholder: Placeholder, at path: String, in record: JSONValue, recordName: String) throws(PassCompilerError) -> JSONValue {
        guard let value = RecordPath.lookup(placeholder.path, in: record), value != .null else {
            throw .missingValue(placeholder: placeholder.path, path: path, record: recordName)
        }
        switch (placeholder.conversion, value) {
        case (nil, _), (.number, .number), (.string, .string):
            return value
        case (.number, .string(let text)):
            guard let number = Double(text.trimmingSpaces()), number.isFinite else {
                throw .invalidRecord(record: recordName, message: "{{\(placeholder.path) | number}} at pass.json \(path) needs a number, found \"\(text)\"")
            }
            return .number(number)
        case (.string, .number(let number)):
            return .string(format(number))
        case (.string, .bool(let bool)):
            return .string(bool ? "true" : "false")
        default:
            throw .invalidRecord(record: recordName, message: "{{\(placeholder.path) | \(placeholder.conversion!.rawValue)}} at pass.json \(path) cannot convert \(value.kind)")
        }
    }

    private static func format(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs (what `CharacterSet.whitespaces` holds),
    /// without a trip through Foundation's `NSString`: CSV numbers are converted once per pass.
    func trimmingSpaces() -> Substring {
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
