/// Collects findings during validation with terse helpers.
/// `package` so OrderModel's validation reads the same way.
package struct IssueList {
    /// An empty list.
    package init() {}

    package var issues: [ValidationIssue] = []

    package mutating func error(_ path: String, _ rule: String, _ message: String) {
        issues.append(ValidationIssue(severity: .error, path: path, rule: rule, message: message))
    }

    package mutating func warning(_ path: String, _ rule: String, _ message: String) {
        issues.append(ValidationIssue(severity: .warning, path: path, rule: rule, message: message))
    }
}
