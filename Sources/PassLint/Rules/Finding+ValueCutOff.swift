import PassModel

extension Finding {
    /// `glance.valueCutOff`: a field value Wallet draws with an ellipsis because it is wider than its
    /// column. Only a drawing tells (the width depends on the font, the style's layout and the other
    /// fields of the row), so the tool that draws the pass — `passwright lint` with `--record` or on a
    /// `.pkpass` — measures it and builds the finding here, worded like every other rule.
    ///
    /// - Parameters:
    ///   - path: the value's JSON path, `storeCard.secondaryFields[1].value`.
    ///   - record: the record that filled the template, named as in other record findings (`record 1`).
    ///   - field: the field as drawn.
    ///   - fitting: the most whole words from the start of the text that are drawn whole; `nil` when
    ///     not even the first word fits (a code, a long name): the field then moves to the back, since
    ///     cutting a word changes what it says.
    public static func valueCutOff(path: String, record: String?, field: Field, fitting: String?) -> Finding {
        let location = (record.map { "\($0): " } ?? "") + "pass.json \(path)"
        let before = JSONTree.member("value", FieldValue.jsonValue(field.value)) + " (drawn with an ellipsis)"
        guard let fitting else {
            return Finding(
                rule: "glance.valueCutOff", severity: .warning, location: location, before: before,
                after: "move the field \"\(field.key)\" to backFields (or shorten the value or its neighbours')",
                effect: "The holder no longer reads a value cut off with \"…\" on the front; the whole of it is one tap away on the back.",
                fix: .moveFieldToBack(key: field.key))
        }
        return Finding(
            rule: "glance.valueCutOff", severity: .warning, location: location, before: before,
            after: JSONTree.member("value", .string(fitting)) + " (the full text in a backFields entry)",
            effect: "The holder reads the whole value on the front instead of a word cut off with \"…\"; the rest is one tap away on the back.",
            fix: .shorten(key: field.key, value: fitting))
    }
}

extension FieldValue {
    /// The value as `pass.json` writes it.
    static func jsonValue(_ value: FieldValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number): return .number(number)
        case .date(let date): return .string(date.description)
        }
    }
}
