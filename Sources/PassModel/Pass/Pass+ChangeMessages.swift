extension Pass {
    /// Whether Wallet shows a notification when this pass replaces `old`: a field with a
    /// `changeMessage` whose value differs from the value of the field with the same key in `old`
    /// (Wallet matches fields by key, whichever group holds them; a key `old` lacks counts as changed).
    ///
    /// Asked for every pass of a roll-out, so it reads the fields where they are stored: building
    /// ``allFields``' paths, or copying each field (its semantics and all) into an array, was most
    /// of its cost (BENCHMARKS.md).
    public func notifiesOfChange(from old: Pass) -> Bool {
        var before: [String: FieldValue] = [:]
        for (_, fields) in old.styleDictionaries {
            for group in PassFields.Group.allCases {
                let list = fields[group]
                for index in list.indices where before[list[index].key] == nil {
                    before[list[index].key] = list[index].value
                }
            }
        }
        for (_, fields) in styleDictionaries {
            for group in PassFields.Group.allCases {
                let list = fields[group]
                for index in list.indices where list[index].changeMessage != nil && before[list[index].key] != list[index].value {
                    return true
                }
            }
        }
        return false
    }
}
