import Foundation
import PassModel

/// One change a writer asks of a pass: what the REST API's `PATCH`, a template-wide change, the
/// console, a personalization, a void or a roll-out hands the write pipeline (``PassWriter``).
///
/// It is the *change*, not the state it leads to, so a held notifying edit can be applied to the pass
/// as it is when it is released, and a later write's keys can be taken out of it
/// (``removing(keysOf:)``): a deferred change never overwrites a later one.
public struct PassEdit: Sendable, Hashable, Codable {
    /// A JSON Merge Patch (RFC 7386) for the record, or `nil` to leave it.
    public var data: JSONValue?
    /// Top-level `pass.json` overrides to set; `null` removes one.
    public var overrides: JSONObject
    /// The new voided flag, or `nil` to leave it.
    public var voided: Bool?
    /// A roll-out: the template version the pass moves to (never back), or `nil`.
    public var templateVersion: Int64?

    /// An edit of any of a pass's mutable parts.
    public init(data: JSONValue? = nil, overrides: JSONObject = [:], voided: Bool? = nil, templateVersion: Int64? = nil) {
        self.data = data
        self.overrides = overrides
        self.voided = voided
        self.templateVersion = templateVersion
    }

    /// Whether it asks for nothing at all.
    var isEmpty: Bool { data == nil && overrides.isEmpty && voided == nil && templateVersion == nil }

    /// This (earlier, held) edit without whatever `later`, an edit written since, sets: a member
    /// `later` replaces or removes is dropped here, members of an object both patch are compared
    /// member by member. Applying the result after `later` leaves every value `later` set in place.
    func removing(keysOf later: PassEdit) -> PassEdit {
        var kept = self
        if let laterData = later.data, let data {
            kept.data = Self.removing(laterData, from: data)
        }
        for (key, _) in later.overrides { kept.overrides[key] = nil }
        if later.voided != nil { kept.voided = nil }
        if let version = later.templateVersion, let mine = templateVersion, version >= mine { kept.templateVersion = nil }
        return kept
    }

    /// `patch` without the members `later` sets; `nil` when nothing is left.
    private static func removing(_ later: JSONValue, from patch: JSONValue) -> JSONValue? {
        // A later patch that is not an object replaces the whole value: nothing earlier survives it.
        guard case .object(let laterMembers) = later, case .object(var members) = patch else { return nil }
        for (key, laterValue) in laterMembers {
            guard let value = members[key] else { continue }
            if case .object = laterValue, case .object = value {
                members[key] = removing(laterValue, from: value)
            } else {
                members[key] = nil
            }
        }
        return members.isEmpty ? nil : .object(members)
    }

    /// Held edits as the store keeps them: a JSON array, oldest first, with sorted keys so that the
    /// same edits always make the same text (the text is the hold's compare-and-swap value).
    static func encode(_ edits: [PassEdit]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain JSON values and numbers cannot fail.
        return String(decoding: (try? encoder.encode(edits)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The held edits stored as ``encode(_:)`` wrote them.
    static func decode(_ text: String) throws -> [PassEdit] {
        try JSONDecoder().decode([PassEdit].self, from: Data(text.utf8))
    }
}
