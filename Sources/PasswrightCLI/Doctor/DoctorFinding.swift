/// One check `passwright doctor` made, and what to do about it: a row of its table.
struct DoctorFinding: Sendable, Equatable, Encodable {
    enum Result: String, Sendable, Encodable {
        case pass, fail, warn
        /// Not checked, because an earlier check failed or what it needs was not given.
        case skipped
    }

    /// A stable name (`tls.version`), for scripts and the docs.
    let check: String
    let result: Result
    /// What was seen.
    let detail: String
    /// What to change; empty when nothing needs to.
    var fix: String = ""
    /// What the change makes happen on a holder's phone; empty when nothing needs to change.
    var effect: String = ""

    static func pass(_ check: String, _ detail: String) -> DoctorFinding {
        DoctorFinding(check: check, result: .pass, detail: detail)
    }

    static func skipped(_ check: String, _ reason: String) -> DoctorFinding {
        DoctorFinding(check: check, result: .skipped, detail: reason)
    }
}

/// The findings as one Markdown table, in the order checked: check, result, what was seen, what to
/// change and what that changes.
enum DoctorReport {
    static func markdown(_ findings: [DoctorFinding]) -> String {
        var lines = ["| Check | Result | Seen | What to change | What this changes |", "|---|---|---|---|---|"]
        for finding in findings {
            let cells = [finding.check, finding.result.rawValue.uppercased(), finding.detail, finding.fix, finding.effect]
            lines.append("| " + cells.map(cell).joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A summary line: how many passed, failed, warned, skipped.
    static func summary(_ findings: [DoctorFinding]) -> String {
        let count = { (result: DoctorFinding.Result) in findings.filter { $0.result == result }.count }
        return "\(count(.pass)) passed, \(count(.fail)) failed, \(count(.warn)) warnings, \(count(.skipped)) skipped"
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: "<br>")
    }
}
