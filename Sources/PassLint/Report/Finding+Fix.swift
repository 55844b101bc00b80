import PassModel

extension Finding {
    /// A finding's After as a change to the typed pass, so a tool can show the pass with it applied
    /// (`passwright lint --pictures` draws before and after) without parsing the After sentence.
    ///
    /// Only changes to how the front looks have one: colours, fields the style has no room for, and
    /// values cut off with an ellipsis.
    public enum Fix: Sendable, Hashable, Codable {
        /// Set a colour key of `pass.json` (`foregroundColor`, `labelColor`) to `value`, `rgb(r, g, b)`.
        case colour(key: String, value: String)
        /// Keep the first `keep` fields of `group` (`secondaryFields`) in the style dictionary `style`
        /// (`storeCard`); the others move to that style's `backFields`, where the back lists them all.
        case moveToBack(style: String, group: String, keep: Int)
        /// Move the field `key` from the front to its style's `backFields` (a one-word value, such as
        /// a code, that does not fit: cutting it would change what it says).
        case moveFieldToBack(key: String)
        /// Show `value` instead of the text of the field `key`; the whole text moves to a `backFields`
        /// entry (key `<key>Full`, same label), so nothing the holder needs is lost.
        case shorten(key: String, value: String)

        /// `pass` with the fix applied. A fix that no longer matches the pass (a key not there, a
        /// colour that does not parse) leaves it unchanged.
        public func apply(to pass: Pass) -> Pass {
            var pass = pass
            switch self {
            case .colour(let key, let value):
                guard let colour = Color(value) else { return pass }
                switch key {
                case "foregroundColor": pass.foregroundColor = colour
                case "labelColor": pass.labelColor = colour
                case "backgroundColor": pass.backgroundColor = colour
                case "stripColor": pass.stripColor = colour
                case "footerBackgroundColor": pass.footerBackgroundColor = colour
                default: break
                }
            case .moveToBack(let style, let group, let keep):
                guard let group = PassFields.Group(rawValue: group) else { return pass }
                Self.editFields(of: style, in: &pass) { fields in
                    let all = fields[group]
                    guard all.count > keep else { return }
                    Self.set(group, to: Array(all.prefix(keep)), in: &fields)
                    fields.backFields += all.dropFirst(keep)
                }
            case .moveFieldToBack(let key):
                for style in Self.styleKeys(of: pass) {
                    Self.editFields(of: style, in: &pass) { fields in
                        for group in PassFields.Group.allCases where group != .backFields {
                            guard let index = fields[group].firstIndex(where: { $0.key == key }) else { continue }
                            var list = fields[group]
                            fields.backFields.append(list.remove(at: index))
                            Self.set(group, to: list, in: &fields)
                        }
                    }
                }
            case .shorten(let key, let value):
                for style in Self.styleKeys(of: pass) {
                    Self.editFields(of: style, in: &pass) { fields in
                        for group in PassFields.Group.allCases where group != .backFields {
                            guard let index = fields[group].firstIndex(where: { $0.key == key }) else { continue }
                            var list = fields[group]
                            let original = list[index]
                            list[index].value = .string(value)
                            list[index].attributedValue = nil
                            Self.set(group, to: list, in: &fields)
                            var whole = Field(key: key + "Full", value: original.value, label: original.label)
                            whole.attributedValue = original.attributedValue
                            fields.backFields.append(whole)
                        }
                    }
                }
            }
            return pass
        }

        /// Replaces one group of fields (PassModel's subscript only reads).
        static func set(_ group: PassFields.Group, to list: [Field], in fields: inout PassFields) {
            switch group {
            case .headerFields: fields.headerFields = list
            case .primaryFields: fields.primaryFields = list
            case .secondaryFields: fields.secondaryFields = list
            case .auxiliaryFields: fields.auxiliaryFields = list
            case .backFields: fields.backFields = list
            case .additionalInfoFields: fields.additionalInfoFields = list
            case .footerFields: fields.footerFields = list
            }
        }

        /// The style dictionaries present, by JSON key.
        static func styleKeys(of pass: Pass) -> [String] {
            pass.presentStyles.map(\.key) + (pass.posterGeneric == nil ? [] : ["posterGeneric"])
        }

        /// Edits the style dictionary `key` (`storeCard`, `posterGeneric`) when present.
        static func editFields(of key: String, in pass: inout Pass, _ edit: (inout PassFields) -> Void) {
            if key == "posterGeneric" {
                guard var fields = pass.posterGeneric else { return }
                edit(&fields)
                pass.posterGeneric = fields
                return
            }
            guard let style = PassStyle.allCases.first(where: { $0.key == key }), var fields = pass[style] else { return }
            edit(&fields)
            pass[style] = fields
        }
    }
}
