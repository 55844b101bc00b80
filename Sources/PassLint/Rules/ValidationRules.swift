import PassCompiler
import PassModel

/// Every issue PassModel's decoder and `validate()` report, as findings with the issue's own rule id:
/// the linter adds no second opinion on what Wallet refuses, it only says it in a designer's terms.
enum ValidationRules: LintRules {
    static func findings(in context: LintContext) -> [Finding] {
        let issues = context.subject.decodingIssues + context.pass.validate()
        let undecoded = Linter.undecodable(LintFailure(problems: context.subject.undecoded), record: nil)
        return undecoded + issues.filter { !context.subject.isUnknown($0.path) && !context.subject.isUndecoded($0.path) }
            .map { finding(for: $0, in: context) }
    }

    static func finding(for issue: ValidationIssue, in context: LintContext) -> Finding {
        Finding(rule: issue.rule, severity: issue.severity == .error ? .error : .warning,
                location: context.at(issue.path), before: context.subject.quote(issue.path),
                after: after(for: issue, in: context), effect: effect(of: issue))
    }

    /// The concrete fix where it is mechanical, else the validator's own instruction.
    private static func after(for issue: ValidationIssue, in context: LintContext) -> String {
        switch issue.rule {
        case "field.changeMessage":
            let field = JSONTree.value(at: JSONTree.parent(issue.path), in: context.subject.source)
            var name = "Value"
            if case .object(let object)? = field, case .string(let label)? = object["label"] ?? object["key"] { name = label }
            return JSONTree.member("changeMessage", .string("\(name) changed to %@"))
        case "field.textAlignment":
            return "remove \"textAlignment\" (the natural alignment applies)"
        default:
            return issue.message
        }
    }

    private static func effect(of issue: ValidationIssue) -> String {
        let rule = issue.rule
        if issue.severity == .warning, rule.hasPrefix("posterEventTicket") || rule.hasPrefix("semanticBoardingPass") || rule == "preferredStyleSchemes.style" {
            return "The richer layout shows less than it could, with blanks where this information would go."
        }
        if rule.hasPrefix("webService") || rule.hasPrefix("authenticationToken") {
            return "The pass never registers for updates, so the holder keeps stale details forever."
        }
        if rule == "fields.count" {
            return "Fields beyond what the style draws are never shown, so the holder never sees them."
        }
        guard issue.severity == .error else { return "Wallet ignores this, so what the template intends never reaches the holder." }
        // The words follow what the build does with the error (BuildPolicy), so lint never says
        // "refuses" of a pass that builds and installs.
        switch BuildPolicy.response(to: rule) {
        case .refuses: return Finding.refusedEffect
        case .ignoresKey: return "Wallet installs the pass but ignores this key, so what it asks for never reaches the holder."
        case .laysOutPlainer: return "Wallet installs the pass but silently shows the plain classic layout instead of the richer design it asks for."
        }
    }
}
