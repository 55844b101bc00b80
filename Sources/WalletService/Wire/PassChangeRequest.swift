import HTTPServer
import PassModel

/// The body of `PATCH /api/v1/passes/{passType}/{serial}` and `PATCH /api/v1/templates/{template}/passes`
/// (schema `PassChange`): a merge patch of the record, voiding, and relevance keys beside them;
/// at least one of the three.
public struct PassChangeRequest: WireValue {
    public static let schemaName = "PassChange"

    /// A JSON Merge Patch (RFC 7386) of the record.
    public var data: JSONObject?
    public var voided: Bool?
    /// The relevance keys to set (`locations`, `relevantDate`…), as sent; validated with the pass.
    public var relevance: JSONObject

    public init(data: JSONObject? = nil, voided: Bool? = nil, relevance: JSONObject = JSONObject()) {
        self.data = data
        self.voided = voided
        self.relevance = relevance
    }

    /// Reads a body as the server does, with its rules and messages (``init(validating:)``).
    public init(from decoder: any Decoder) throws {
        self = try WireJSON.decodeBody(decoder, Self.init(validating:))
    }

    /// The body, relevance keys beside the others.
    public func encode(to encoder: any Encoder) throws {
        var body = relevance
        body["data"] = data.map(JSONValue.object)
        body["voided"] = voided.map(JSONValue.bool)
        try body.encode(to: encoder)
    }

    /// Checks a parsed body as the API always has: an unknown member, or nothing to change, is a 422
    /// naming the members allowed; a member of the wrong type a 400.
    init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(Set(["data", "voided"]).union(RelevanceOverrides.keys))
        self.init(data: try body.object("data"), voided: try body.bool("voided"), relevance: RelevanceOverrides.extract(from: body))
        guard data != nil || voided != nil || !relevance.isEmpty else {
            throw HTTPError(.unprocessableContent, "nothing to change: send data, voided or a relevance key (\(RelevanceOverrides.keys.sorted().joined(separator: ", ")))")
        }
    }
}
