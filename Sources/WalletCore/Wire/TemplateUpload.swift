/// What `PUT /api/v1/templates/{template}` and `POST …/rollback` answer when a version is stored or
/// found equal to the current one (and what `passwright templates push` and `sync` report).
public struct TemplateUpload: WireValue {
    public static let schemaName = "TemplateUpload"

    /// The template's name.
    public var name: String
    /// The current version after the upload (the stored one when unchanged).
    public var version: Int64
    /// SHA-256 over the sorted file paths and bytes.
    public var digest: String
    /// `false` when the files equal the current version: nothing was stored.
    public var changed: Bool
    /// The passes the new version is rolled out to (0 when unchanged).
    public var passesAffected: Int
    /// Design warnings and advice, then the files the server left out.
    public var warnings: [TemplateFinding]

    /// Creates the value from its members.
    public init(name: String, version: Int64, digest: String, changed: Bool, passesAffected: Int, warnings: [TemplateFinding]) {
        self.name = name
        self.version = version
        self.digest = digest
        self.changed = changed
        self.passesAffected = passesAffected
        self.warnings = warnings
    }
}
