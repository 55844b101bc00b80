/// Collects findings during validation with terse helpers.
struct IssueList {
    var issues: [ValidationIssue] = []

    mutating func error(_ path: String, _ rule: String, _ message: String) {
        issues.append(ValidationIssue(severity: .error, path: path, rule: rule, message: message))
    }

    mutating func warning(_ path: String, _ rule: String, _ message: String) {
        issues.append(ValidationIssue(severity: .warning, path: path, rule: rule, message: message))
    }
}
