import PassModel

/// A holder lookup (`{"field": "member.id", "value": "…"}`): where in a JSON record a holder's value
/// sits and the value itself, compared exactly. Erasures and exports find passes by their record
/// and orders by their `order.json` with it, so both answer "does this hold the holder?" alike.
struct RecordPath: Sendable {
    /// The member names, outermost first.
    let members: [String]
    /// The holder's value: a string, or a number's text.
    let value: String

    /// Checks the lookup: a path of non-empty member names (dots between them) and a value.
    init(_ path: String, value: String) throws {
        let members = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !value.isEmpty, !members.isEmpty, !members.contains(where: \.isEmpty) else {
            throw ServiceError.invalid("give a field (a record member such as member.id) and a value that is not empty")
        }
        self.members = members
        self.value = value
    }

    /// Whether `record` holds the value at the path: the same string, or a number written so.
    func isHeld(by record: JSONValue) -> Bool {
        let found = members.reduce(Optional(record)) { value, name in
            guard case .object(let object)? = value else { return nil }
            return object[name]
        }
        switch found {
        case .string(let text)?: return text == value
        case let number?: if case .number = number { return PassService.text(number) == value } else { return false }
        case nil: return false
        }
    }

    /// The value as it appears inside a JSON string of a stored document (quotes and controls
    /// escaped), to narrow candidates by their text before ``isHeld(by:)`` compares exactly.
    var storedText: String {
        String(PassService.text(.string(value)).dropFirst().dropLast())
    }
}
