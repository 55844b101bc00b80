import WalletCore
import HTTPServer
import PassModel

/// The body of `POST /api/v1/erasures` and `POST /api/v1/exports`: the holder, named by a value in
/// the records (`member.id` = `BL-7731-0001`), optionally within one template. A body, not a query:
/// the value is personal data, and URLs end up in logs.
public struct HolderLookup: WireRequestBody {
    public static let schemaName = "HolderLookup"

    /// A record member, dots between names: `member.id`, `email`.
    public var field: String
    /// The value it holds (a string, or a number's text), compared exactly.
    public var value: String
    /// Only passes (or orders) of this template; a key limited to some templates must name one.
    public var template: String?

    public init(field: String, value: String, template: String? = nil) {
        self.field = field
        self.value = value
        self.template = template
    }

    public var members: JSONObject {
        var body: JSONObject = ["field": .string(field), "value": .string(value)]
        body["template"] = template.map(JSONValue.string)
        return body
    }

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["field", "value", "template"])
        guard let field = try body.string("field"), !field.isEmpty, let value = try body.string("value"), !value.isEmpty else {
            throw HTTPError(.unprocessableContent, "give field (a record member such as member.id) and value (the holder's value there), both non-empty strings")
        }
        self.init(field: field, value: value, template: try body.string("template"))
    }
}
