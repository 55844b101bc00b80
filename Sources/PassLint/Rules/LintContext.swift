import Foundation
import PassModel

/// What every rule reads: the pass, its files (absent when a rendered record is checked on its own),
/// the linter's options and the time the pass is built at.
struct LintContext: Sendable {
    let subject: LintedPass
    let files: LintFiles?
    /// A template's source (placeholders unfilled) rather than one finished pass.
    let isTemplate: Bool
    /// The web service URL the build will write in (`--web-service-url`), when the template has none.
    let webServiceURL: String?
    let now: Date

    var pass: Pass { subject.pass }

    /// The location of a `pass.json` path.
    func at(_ path: String) -> String {
        path.isEmpty ? "pass.json" : "pass.json \(path)"
    }

    /// The pass's classic style key, or `pass` when there is not exactly one.
    var styleKey: String { pass.style?.key ?? "pass" }

    /// Every field with its path, whatever group holds it.
    var fields: [(path: String, field: Field)] { pass.allFields }
}

/// A group of rules over one concern.
protocol LintRules {
    static func findings(in context: LintContext) -> [Finding]
}
