import PassModel

/// A template's fields as its `pass.json` spells them, where that is known before any record fills
/// it: each field's key, the node its value renders from, and whether it carries a change message.
///
/// A roll-out asks, for each pass, whether moving it to the new version shows its holder a change
/// message (Wallet shows one when a field with a `changeMessage` gets a new value), and for that
/// rendered the pass as it is and as it will be: every pass, whatever the new version changed. When
/// no field with a change message renders its value from a different node than in the old version,
/// no record can make the two differ, and the pass as it is need not be rendered at all
/// (``Template/mayShowChangeMessage(movingFrom:)``).
struct TemplateFields: Sendable {
    /// One field: the node its value renders from (`nil`: it has none) and whether it has a change message.
    struct Field: Sendable {
        var value: TemplateNode?
        var hasChangeMessage: Bool
    }

    /// The fields by key; each key once.
    var fields: [String: Field]

    /// The JSON keys of the style dictionaries, where fields are.
    static let styleKeys: Set<String> = Set(PassStyle.allCases.map(\.key)).union(["posterGeneric"])

    /// The fields of `root`, or `nil` when a record or an override can decide which fields there are
    /// or what they are called (a style dictionary, a field list, a field or its key from a
    /// placeholder), or when a key is used twice: then only rendering can tell.
    init?(_ root: TemplateNode) {
        guard let members = Self.members(of: root) else { return nil }
        var fields: [String: Field] = [:]
        for (style, node) in members where Self.styleKeys.contains(style) {
            guard let groups = Self.members(of: node) else { return nil }
            for (group, list) in groups where PassFields.Group(rawValue: group) != nil {
                guard let elements = Self.elements(of: list) else { return nil }
                for element in elements {
                    guard let field = Self.members(of: element),
                          let keyNode = field.first(where: { $0.key == "key" })?.node,
                          case .literal(.string(let key)) = keyNode,
                          fields[key] == nil
                    else { return nil }
                    fields[key] = Field(
                        value: field.first { $0.key == "value" }?.node,
                        hasChangeMessage: field.contains { $0.key == "changeMessage" })
                }
            }
        }
        self.fields = fields
    }

    /// Whether a pass rendered from `old` and then from these fields, with the same record, can
    /// show a change message: a field with one whose value node is not the same as the old field of
    /// its key (or the old template has no such field).
    func mayShowChangeMessage(movingFrom old: TemplateFields) -> Bool {
        fields.contains { key, field in
            guard field.hasChangeMessage else { return false }
            guard let before = old.fields[key] else { return true }
            return !TemplateNode.rendersAlike(field.value, before.value)
        }
    }

    /// An object node's members, each as a node; `nil` when the node is not an object whatever the record.
    private static func members(of node: TemplateNode) -> [(key: String, node: TemplateNode)]? {
        switch node {
        case .object(let members): members
        case .literal(.object(let object)): object.map { (key: $0.key, node: TemplateNode.literal($0.value)) }
        default: nil
        }
    }

    /// An array node's elements, each as a node; `nil` when the node is not an array whatever the record.
    private static func elements(of node: TemplateNode) -> [TemplateNode]? {
        switch node {
        case .array(let nodes): nodes
        case .literal(.array(let values)): values.map(TemplateNode.literal)
        default: nil
        }
    }
}

extension TemplateNode {
    /// Whether the two render the same JSON from every record: the same literal, or the same
    /// pieces of text and placeholders in the same shape. (Where a node sits, which only error
    /// messages name, does not count.) Different shapes that might render alike count as different.
    static func rendersAlike(_ a: TemplateNode?, _ b: TemplateNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.literal(let x)?, .literal(let y)?): return x == y
        case (.interpolated(let x, _)?, .interpolated(let y, _)?): return x == y
        case (.object(let x)?, .object(let y)?):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && rendersAlike($0.node, $1.node) }
        case (.array(let x)?, .array(let y)?):
            return x.count == y.count && zip(x, y).allSatisfy { rendersAlike($0, $1) }
        default: return false
        }
    }
}

extension Template {
    /// Whether moving a pass from `old` to this template, with the same record and overrides that
    /// replace no style dictionary, can show its holder a change message. `false` only when no
    /// record can: every field with a change message renders its value from the same node as the
    /// old template's field of that key. `true` whenever that is not known without rendering.
    public func mayShowChangeMessage(movingFrom old: Template) -> Bool {
        guard let mine = fields, let theirs = old.fields else { return true }
        return mine.mayShowChangeMessage(movingFrom: theirs)
    }

    /// Whether `overrides` replace a style dictionary (then the fields are the overrides', and
    /// ``mayShowChangeMessage(movingFrom:)`` does not speak for them).
    public static func overridesFields(_ overrides: JSONObject) -> Bool {
        overrides.keys.contains { TemplateFields.styleKeys.contains($0) }
    }
}
