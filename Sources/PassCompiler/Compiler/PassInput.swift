import PassModel

/// One pass to build: the record that fills the template, and what the caller fixes explicitly.
public struct PassInput: Sendable {
    /// The record; its values fill the placeholders.
    public var record: JSONValue
    /// Names the record in errors: `"loyalty.csv line 12"`, `"request body"`.
    public var recordName: String
    /// The serial number; `nil` takes the record's `serialNumber`, then the template's, then a new UUID.
    public var serialNumber: String?
    /// The token; `nil` takes the record's `authenticationToken`, then a fresh CSPRNG token.
    public var authenticationToken: String?
    /// Top-level `pass.json` keys that replace the rendered ones for this pass only — how an issuer
    /// moves one pass's geofence or date (`locations`, `relevantDates`, `expirationDate`, …).
    public var overrides: JSONObject

    /// Creates an input.
    public init(record: JSONValue, recordName: String, serialNumber: String? = nil, authenticationToken: String? = nil, overrides: JSONObject = JSONObject()) {
        self.record = record
        self.recordName = recordName
        self.serialNumber = serialNumber
        self.authenticationToken = authenticationToken
        self.overrides = overrides
    }
}
