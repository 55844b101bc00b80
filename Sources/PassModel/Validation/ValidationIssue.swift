/// One finding about a pass: an error Wallet would reject (or silently fall back on), or a warning.
///
/// `rule` is a stable identifier (`formatVersion`, `fields.uniqueKeys`) so tools can filter, count
/// and document findings without parsing messages; `path` points into `pass.json`.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Wallet rejects the pass or silently falls back to a plainer design.
        case error
        /// The pass works, but something is lost, deprecated or unknown.
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .error && rhs == .warning
        }
    }

    /// Whether the finding blocks signing.
    public var severity: Severity
    /// JSON path of the offending key (`""` for the document as a whole).
    public var path: String
    /// Stable rule identifier.
    public var rule: String
    /// What is wrong and what to do about it.
    public var message: String

    /// Creates a finding.
    public init(severity: Severity, path: String, rule: String, message: String) {
        self.severity = severity
        self.path = path
        self.rule = rule
        self.message = message
    }

    public var description: String {
        "\(severity.rawValue): \(path.isEmpty ? "pass.json" : path): \(message) [\(rule)]"
    }
}
