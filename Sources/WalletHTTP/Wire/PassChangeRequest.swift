import WalletCore
import HTTPServer
import PassModel

/// The body of `PATCH /api/v1/passes/{passType}/{serial}` and `PATCH /api/v1/templates/{template}/passes`
/// (schema `PassChange`): a merge patch of the record, voiding, and relevance keys beside them;
/// at least one of the three.
public struct PassChangeRequest: WireRequestBody {
    public static let schemaName = "PassChange"

    /// A JSON Merge Patch (RFC 7386) of the record.
    public var data: JSONObject?
    /// `true` voids the pass (Wallet shows it as no longer valid); `false` restores it.
    public var voided: Bool?
    /// The relevance keys to set (`locations`, `relevantDate`…), as sent; validated with the pass.
    public var relevance: JSONObject

    /// Creates the value from its members.
    public init(data: JSONObject? = nil, voided: Bool? = nil, relevance: JSONObject = JSONObject()) {
        self.data = data
        self.voided = voided
        self.relevance = relevance
    }

    /// The body, relevance keys beside the others.
    public var members: JSONObject {
        var body = relevance
        body["data"] = data.map(JSONValue.object)
        body["voided"] = voided.map(JSONValue.bool)
        return body
    }

    /// Checks a parsed body as the API always has: an unknown member, or nothing to change, is a 422
    /// naming the members allowed; a member of the wrong type a 400.
    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(Set(["data", "voided"]).union(RelevanceOverrides.keys))
        self.init(data: try body.object("data"), voided: try body.bool("voided"), relevance: RelevanceOverrides.extract(from: body))
        guard data != nil || voided != nil || !relevance.isEmpty else {
            throw HTTPError(.unprocessableContent, "nothing to change: send data, voided or a relevance key (\(RelevanceOverrides.keys.sorted().joined(separator: ", ")))")
        }
    }
}
