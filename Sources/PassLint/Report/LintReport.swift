import Foundation

/// The two ways findings leave the linter: one markdown table for people (the review format of
/// `pass-design-rules.md`: Before | After | What this changes, most severe first) and JSON for machines.
public enum LintReport {
    /// Findings most severe first; within a severity by location, then rule, so output is stable.
    public static func sorted(_ findings: [Finding]) -> [Finding] {
        findings.sorted {
            ($0.severity, $0.location, $0.rule, $0.before) < ($1.severity, $1.location, $1.rule, $1.before)
        }
    }

    /// One markdown table; each row's first cell starts with `**[severity] rule** location —`.
    /// A finding with ``Finding/pictures`` shows its before picture under Before and its after
    /// picture under After (markdown image links to the paths as written).
    public static func markdownTable(_ findings: [Finding]) -> String {
        var lines = ["| Before | After | What this changes |", "|---|---|---|"]
        for finding in sorted(findings) {
            var first = "**[\(finding.severity.rawValue)] \(finding.rule)** \(finding.location) — \(code(finding.before))"
            var after = code(finding.after)
            if let pictures = finding.pictures {
                first += "<br>" + image("before", pictures.before)
                after += "<br>" + image("after", pictures.after)
            }
            lines.append("| \(cell(first)) | \(cell(after)) | \(cell(finding.effect)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The findings as a JSON array (sorted, pretty-printed, keys sorted) for scripts and CI.
    public static func json(_ findings: [Finding]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and enums cannot fail.
        return (try? encoder.encode(sorted(findings))) ?? Data("[]".utf8)
    }

    /// Wraps a value in backticks unless it is the missing marker or already prose.
    private static func code(_ text: String) -> String {
        text == Finding.missing || text.isEmpty ? text : "`\(text.replacingOccurrences(of: "`", with: "'"))`"
    }

    /// A markdown image link; a path with spaces or parentheses goes in angle brackets (CommonMark).
    private static func image(_ text: String, _ path: String) -> String {
        let target = path.contains(where: { " ()".contains($0) }) ? "<\(path)>" : path
        return "![\(text)](\(target))"
    }

    /// Escapes what would break a table cell.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
