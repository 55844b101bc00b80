import WalletCore
import HTTPServer
import PassModel

/// The body of `POST /api/v1/templates/{template}/preview` (optional): the record to draw the
/// template with; without it each placeholder shows its own name.
public struct PreviewRequest: WireValue {
    public static let schemaName = "PreviewRequest"

    /// The record to fill the template with, as `POST /api/v1/passes` takes in `data`.
    public var record: JSONObject?

    /// Creates the value from its members.
    public init(record: JSONObject? = nil) {
        self.record = record
    }

    /// Checks a parsed body as the API always has: only `record`, an object.
    init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["record"])
        self.init(record: try body.object("record"))
    }
}
