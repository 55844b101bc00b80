import WalletCore
import HTTPServer
import PassModel

/// The body of `POST /api/v1/templates/{template}/rollback`: the version to make current again.
public struct TemplateRollback: WireValue {
    public static let schemaName = "TemplateRollback"

    /// An existing version of the template, from 1.
    public var version: Int64

    /// Creates the value from its members.
    public init(version: Int64) {
        self.version = version
    }

    /// Checks a parsed body as the API always has: only `version`, a whole number from 1.
    init(validating body: JSONObject, template name: String) throws(HTTPError) {
        try body.requireOnly(["version"])
        guard case .number(let number)? = body["version"], number >= 1, number.rounded() == number, number < 1e15 else {
            throw HTTPError(.unprocessableContent, "version must be a whole number of one of the template's versions (GET /api/v1/templates/\(name))")
        }
        self.init(version: Int64(number))
    }
}
