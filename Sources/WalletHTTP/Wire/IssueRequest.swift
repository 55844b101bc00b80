import WalletCore
import HTTPServer
import PassModel

/// The body of `POST /api/v1/passes`: the template, an optional serial number, the record, and the
/// relevance keys set on this pass over the template (`locations`, `relevantDate`…), which sit
/// beside the others in the body.
public struct IssueRequest: WireRequestBody {
    public static let schemaName = "IssueRequest"

    /// The template the pass is made from.
    public var template: String
    /// Absent: the server makes one.
    public var serialNumber: String?
    /// The record that fills the template's placeholders; absent is `{}`.
    public var data: JSONObject?
    /// The relevance keys (`locations`, `beacons`, `maxDistance`, `relevantDate`, `relevantDates`,
    /// `expirationDate`), as sent; validated with the pass.
    public var relevance: JSONObject

    /// Creates the value from its members.
    public init(template: String, serialNumber: String? = nil, data: JSONObject? = nil, relevance: JSONObject = JSONObject()) {
        self.template = template
        self.serialNumber = serialNumber
        self.data = data
        self.relevance = relevance
    }

    /// The body, relevance keys beside the others.
    public var members: JSONObject {
        var body = relevance
        body["template"] = .string(template)
        body["serialNumber"] = serialNumber.map(JSONValue.string)
        body["data"] = data.map(JSONValue.object)
        return body
    }

    /// Checks a parsed body as the API always has: an unknown member or no template is a 422 naming
    /// it, a member of the wrong type a 400.
    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(Set(["template", "serialNumber", "data"]).union(RelevanceOverrides.keys))
        guard let template = try body.string("template") else { throw HTTPError(.unprocessableContent, "template is required") }
        self.init(template: template, serialNumber: try body.string("serialNumber"), data: try body.object("data"), relevance: RelevanceOverrides.extract(from: body))
    }
}
