import PassLint

/// One lint finding as the template routes report it, with file and JSON path apart
/// (`pass.json` and `foregroundColor`) for clients to point at: a warning of an upload, or an error
/// of a refusal (the `errors` of an `InvalidTemplateProblem`). A file the server left out of an
/// upload is a warning with only `message`; absent members are left out.
public struct TemplateFinding: WireValue {
    public static let schemaName = "TemplateFinding"

    /// The linter's stable rule identifier (`contrast.foreground`).
    public var rule: String?
    /// `error` (Wallet refuses the pass), `warning` or `advice`.
    public var severity: Finding.Severity?
    /// File and path together, as the linter wrote them.
    public var location: String?
    /// The file the finding is in (`pass.json`, `logo@2x.png`).
    public var file: String?
    /// The JSON path inside it (`storeCard.primaryFields[0].value`), or empty.
    public var path: String?
    /// What the finding does to the pass (the holder's view).
    public var message: String
    /// What the template has now.
    public var now: String?
    /// What would fix it.
    public var fix: String?

    /// Creates the value from its members.
    public init(
        rule: String? = nil, severity: Finding.Severity? = nil, location: String? = nil, file: String? = nil, path: String? = nil,
        message: String, now: String? = nil, fix: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.location = location
        self.file = file
        self.path = path
        self.message = message
        self.now = now
        self.fix = fix
    }

    /// A linter's finding, its location split at the first space into file and JSON path.
    public init(_ finding: Finding) {
        let parts = finding.location.split(separator: " ", maxSplits: 1).map(String.init)
        self.init(
            rule: finding.rule, severity: finding.severity, location: finding.location, file: parts.first ?? "",
            path: parts.count > 1 ? parts[1] : "", message: finding.effect, now: finding.before, fix: finding.after)
    }

}
