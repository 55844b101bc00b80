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

    /// The web service rules passes and orders share (Apple's Pass and Order references): the URL and the
    /// token come together, and the token has at least 16 characters.
    package mutating func webServicePairing(url: String?, token: String?) {
        switch (url, token) {
        case (_?, nil):
            error("authenticationToken", "webService.pairing", "webServiceURL requires authenticationToken")
        case (nil, _?):
            error("webServiceURL", "webService.pairing", "authenticationToken requires webServiceURL")
        default: break
        }
        if let token, token.count < 16 {
            error("authenticationToken", "authenticationToken.length", "authenticationToken must be at least 16 characters, found \(token.count)")
        }
    }
}
