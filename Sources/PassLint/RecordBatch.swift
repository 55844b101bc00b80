import Foundation
import PassCompiler
import PassModel

/// Lints the passes of a batch one record at a time (constant memory), keeping what the template's
/// own lint cannot see: rendering failures, rule breaks only filled-in values show, and barcode
/// messages shared by several passes.
struct RecordBatch {
    private let template: Template
    private let files: LintFiles
    private let linter: Linter
    private let now: Date
    /// (rule, location) pairs the template lint already reports.
    private let known: Set<[String]>
    /// First finding per (rule, location), and how many records had it.
    private var found: [[String]: (finding: Finding, count: Int)] = [:]
    private var order: [[String]] = []
    /// Which records carry each barcode message.
    private var messages: [String: [String]] = [:]
    private var failures: [Finding] = []

    init(linter: Linter, template: Template, now: Date) {
        self.linter = linter
        self.template = template
        self.now = now
        files = LintFiles(template: template)
        known = Set(linter.lint(template: template, now: now).map { [$0.rule, $0.location] })
    }

    mutating func add(_ record: Result<JSONValue, PassCompilerError>, name: String) {
        let tree: JSONValue
        do {
            let value = try record.get()
            tree = try template.render(PassInput(record: value, recordName: name), options: CompileOptions(webServiceURL: linter.webServiceURL))
        } catch {
            failures += error.problems.map { problem in
                Finding(rule: "record.render", severity: .error, location: name, before: "\(problem)",
                        after: "give the record the value the message names, of the type the template needs",
                        effect: "This holder gets a pass at all; the record cannot be built as it is.")
            }
            return
        }
        let subject: LintedPass
        switch LintedPass.rendered(tree) {
        case .failure(let failure):
            failures += Linter.undecodable(failure, record: name)
            return
        case .success(let rendered):
            subject = rendered
        }
        for barcode in subject.pass.barcodes.prefix(1) { messages[barcode.message, default: []].append(name) }
        let context = LintContext(subject: subject, files: files, isTemplate: false, webServiceURL: linter.webServiceURL, now: now)
        for finding in Linter.findings(in: context) where !known.contains([finding.rule, finding.location]) {
            let key = [finding.rule, finding.location]
            if let existing = found[key] {
                found[key] = (existing.finding, existing.count + 1)
            } else {
                var named = finding
                named.location = "\(name): \(finding.location)"
                found[key] = (named, 1)
                order.append(key)
            }
        }
    }

    var findings: [Finding] {
        var result = failures
        for key in order {
            var (finding, count) = found[key]!
            if count > 1 { finding.location += " (and \(count - 1) more record\(count == 2 ? "" : "s"))" }
            result.append(finding)
        }
        for (message, records) in messages.sorted(by: { $0.key < $1.key }) where records.count > 1 {
            result.append(Finding(
                rule: "barcode.sameMessage", severity: .warning, location: "\(records[0]): pass.json barcodes[0].message",
                before: JSONTree.member("message", .string(message)) + " on \(records.count) passes (\(records.prefix(3).joined(separator: ", "))\(records.count > 3 ? ", …" : ""))",
                after: JSONTree.member("message", .string("{{barcode}}")) + " filled with a code generated per pass",
                effect: "Each holder gets their own code, so one screenshot can't be scanned by everyone and a code can be revoked alone."))
        }
        return result
    }
}
