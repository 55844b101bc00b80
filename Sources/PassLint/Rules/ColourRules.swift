import Foundation
import PassModel

/// Legibility of text on the pass colour (WCAG contrast), the documented colour spelling, and meaning
/// carried by colour alone.
enum ColourRules: LintRules {
    /// Field keys or labels that state a tier or status in words.
    static let statusWords = ["tier", "status", "level", "class", "rank", "membership", "grade"]

    static func findings(in context: LintContext) -> [Finding] {
        var findings: [Finding] = []
        let subject = context.subject
        if let background = context.pass.backgroundColor, !subject.isUnknown("backgroundColor") {
            for (key, rule, what) in [("foregroundColor", "contrast.foreground", "values"), ("labelColor", "contrast.label", "labels")] {
                guard !subject.isUnknown(key), let text = key == "labelColor" ? context.pass.labelColor : context.pass.foregroundColor else { continue }
                let ratio = Contrast.ratio(text, background)
                guard ratio < Contrast.minimumRatio else { continue }
                let fixed = Contrast.nearestPassing(text, on: background)
                let fixedRatio = Contrast.ratio(fixed, background)
                findings.append(Finding(
                    rule: rule, severity: .warning, location: context.at(key),
                    before: subject.quote(key) + " on \(background) (\(format(ratio)):1)",
                    after: JSONTree.member(key, .string(fixed.description)),
                    effect: "The \(what) go from \(format(ratio)):1 to \(format(fixedRatio)):1 against the background, so they stay readable in sunlight and for people with low vision.",
                    fix: .colour(key: key, value: fixed.description)))
            }
        }
        for key in ["backgroundColor", "foregroundColor", "labelColor", "stripColor", "footerBackgroundColor"] {
            guard case .string(let text)? = subject.value(at: key), text.hasPrefix("#"), let colour = Color(text) else { continue }
            findings.append(Finding(
                rule: "colour.hex", severity: .advice, location: context.at(key), before: subject.quote(key),
                after: JSONTree.member(key, .string(colour.description)),
                effect: "Nothing changes on current iPhones, but older Wallet versions that only read the documented rgb() form show the right colour too."))
        }
        if subject.isUnknown("backgroundColor"), !statesStatusInWords(context.pass) {
            findings.append(Finding(
                rule: "colour.meaningAlone", severity: .advice, location: context.at("backgroundColor"),
                before: subject.quote("backgroundColor"),
                after: "add a header field " + JSONTree.text(.object(["key": .string("tier"), "label": .string("Tier"), "value": .string("{{tier}}")])),
                effect: "Holders who can't tell the colours apart (and VoiceOver users) can read their tier instead of guessing it from the card colour."))
        }
        return findings
    }

    static func statesStatusInWords(_ pass: Pass) -> Bool {
        pass.allFields.contains { _, field in
            let words = (field.key + " " + (field.label ?? "")).lowercased()
            return statusWords.contains { words.contains($0) }
        }
    }

    static func format(_ ratio: Double) -> String {
        let rounded = (ratio * 100).rounded() / 100
        return String(format: "%.2f", rounded)
    }
}
