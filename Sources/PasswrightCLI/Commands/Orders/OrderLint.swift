import Foundation
import OrderModel
import OrderPackage
import PassLint
import PassModel

/// `passwright lint ORDER_DIR`: what Wallet would refuse in an order's source — decoding problems,
/// the model's rules and the files `order.json` names — as lint findings, so an order reads in the
/// same Before | After | What this changes table (or JSON) as a pass.
enum OrderLint {
    static func findings(in folder: URL) throws -> [Finding] {
        let source = try OrderSource.load(from: folder)
        let issues = source.issues + source.order.validate() + OrderFileRules.issues(for: source.order, paths: Set(source.files.keys))
        return issues.map { issue in
            let error = issue.severity == .error
            return Finding(
                rule: issue.rule, severity: error ? .error : .warning, location: "order.json \(issue.path.isEmpty ? "(root)" : issue.path)",
                before: issue.message, after: "fix the value at \(issue.path.isEmpty ? "the root" : issue.path)",
                effect: error ? "Wallet refuses the order; `passwright build` signs nothing until this is fixed." : "The order works, but this is lost or ignored.")
        }.sorted { ($0.severity, $0.location) < ($1.severity, $1.location) }
    }
}
