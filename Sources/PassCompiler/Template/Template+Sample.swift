import PassModel

extension Template {
    /// A record that fills every placeholder with its own name (`member.name` shows as
    /// "member.name"), and `{{x | number}}` with 1234: how the design looks before there is data,
    /// for previews made without a record.
    public var sampleRecord: JSONValue {
        var record = JSONObject()
        for placeholder in root.placeholderUses where record[placeholder.path] == nil {
            record[placeholder.path] = placeholder.conversion == .number ? .number(1234) : .string(placeholder.path)
        }
        return .object(record)
    }
}

extension TemplateNode {
    /// Every placeholder with its conversion, in order of use.
    var placeholderUses: [Placeholder] {
        switch self {
        case .literal: return []
        case .interpolated(let pieces, _):
            return pieces.compactMap { if case .placeholder(let placeholder) = $0 { placeholder } else { nil } }
        case .object(let members): return members.flatMap(\.node.placeholderUses)
        case .array(let nodes): return nodes.flatMap(\.placeholderUses)
        }
    }
}
