import Foundation
import PassModel

/// A pass on the lock screen gets well under a second of attention: short primary values, few fields,
/// short lock-screen texts, a description VoiceOver can tell apart, and a code people can type.
enum GlanceRules: LintRules {
    /// Longer primary values are cut on small screens.
    static let primaryLength = 12
    /// More secondary fields crowd the row.
    static let secondaryCount = 3
    /// A lock-screen line holds about this many characters.
    static let relevantTextLength = 40
    /// Shorter descriptions don't tell passes apart.
    static let descriptionLength = 10

    static func findings(in context: LintContext) -> [Finding] {
        fieldFindings(context) + relevantTextFindings(context) + descriptionFindings(context) + barcodeFindings(context)
    }

    private static func fieldFindings(_ context: LintContext) -> [Finding] {
        var findings: [Finding] = []
        for (key, fields) in styleDictionaries(context.pass) {
            for (index, field) in fields.primaryFields.enumerated() {
                let path = "\(key).primaryFields[\(index)].value"
                guard case .string(let text) = field.value, text.count > primaryLength, !context.subject.isUnknown(path) else { continue }
                let short = shortened(text, to: primaryLength)
                findings.append(Finding(
                    rule: "glance.primaryLength", severity: .warning, location: context.at(path), before: context.subject.quote(path),
                    after: JSONTree.member("value", .string(short)) + " (the full text in a backFields entry)",
                    effect: "The primary value shows whole instead of being cut off with an ellipsis on smaller iPhones and the lock screen.",
                    fix: .shorten(key: field.key, value: short)))
            }
            if fields.secondaryFields.count > secondaryCount {
                findings.append(tooMany(
                    fields.secondaryFields, group: "secondaryFields", limit: secondaryCount, in: key, moveTo: "backFields",
                    rule: "glance.secondaryCount", context: context,
                    effect: "The row under the primary field reads at a glance instead of squeezing values until some are dropped."))
            }
            let headerLimit = key == "posterGeneric" ? 1 : 3
            if fields.headerFields.count > headerLimit {
                findings.append(tooMany(
                    fields.headerFields, group: "headerFields", limit: headerLimit, in: key, moveTo: "secondaryFields or backFields",
                    rule: "glance.headerCount", context: context,
                    effect: "What shows in the stacked Wallet list is the header the holder needs, not whichever fields happened to fit."))
            }
        }
        return findings
    }

    /// More fields in a group than the style shows: keep the first `limit`, move the rest.
    private static func tooMany(
        _ group: [Field], group name: String, limit: Int, in style: String, moveTo destination: String,
        rule: String, context: LintContext, effect: String
    ) -> Finding {
        let keys = group.map { "\"\($0.key)\"" }
        return Finding(
            rule: rule, severity: .warning, location: context.at("\(style).\(name)"),
            before: "\(keys.count) \(name): " + keys.joined(separator: ", "),
            after: "keep " + keys.prefix(limit).joined(separator: ", ") + "; move " + keys.dropFirst(limit).joined(separator: ", ") + " to \(destination)",
            effect: effect, fix: .moveToBack(style: style, group: name, keep: limit))
    }

    private static func relevantTextFindings(_ context: LintContext) -> [Finding] {
        var texts = context.pass.locations.enumerated().map { ("locations[\($0.offset)].relevantText", $0.element.relevantText) }
        texts += context.pass.beacons.enumerated().map { ("beacons[\($0.offset)].relevantText", $0.element.relevantText) }
        return texts.compactMap { path, text in
            guard let text, text.count > relevantTextLength, !context.subject.isUnknown(path) else { return nil }
            return Finding(
                rule: "glance.relevantTextLength", severity: .warning, location: context.at(path), before: context.subject.quote(path),
                after: JSONTree.member("relevantText", .string(shortened(text, to: relevantTextLength))),
                effect: "The lock-screen suggestion reads in one line instead of being truncated mid-sentence.")
        }
    }

    private static func descriptionFindings(_ context: LintContext) -> [Finding] {
        let pass = context.pass
        let description = pass.description.trimmingCharacters(in: .whitespaces)
        guard !description.isEmpty, !context.subject.isUnknown("description") else { return [] }
        let better = JSONTree.member("description", .string("\(pass.organizationName) \(noun(for: pass))"))
        if description.caseInsensitiveCompare(pass.organizationName.trimmingCharacters(in: .whitespaces)) == .orderedSame {
            return [Finding(
                rule: "description.copiesOrganization", severity: .warning, location: context.at("description"),
                before: context.subject.quote("description"), after: better,
                effect: "VoiceOver says what the pass is, so a holder with several passes from one issuer can tell them apart.")]
        }
        if description.count < descriptionLength || !description.contains(" ") {
            return [Finding(
                rule: "description.tooShort", severity: .warning, location: context.at("description"),
                before: context.subject.quote("description"), after: better,
                effect: "VoiceOver and Spotlight name the pass clearly instead of reading a word that fits any pass.")]
        }
        return []
    }

    private static func barcodeFindings(_ context: LintContext) -> [Finding] {
        var findings: [Finding] = []
        var all = context.pass.barcodes.enumerated().map { (path: "barcodes[\($0.offset)]", barcode: $0.element) }
        if let barcode = context.pass.barcode { all.append((path: "barcode", barcode: barcode)) }
        for (path, barcode) in all {
            if barcode.altText == nil {
                let message = context.subject.value(at: path + ".message") ?? .string(barcode.message)
                findings.append(Finding(
                    rule: "barcode.altText", severity: .warning, location: context.at(path + ".altText"), before: Finding.missing,
                    after: JSONTree.member("altText", message),
                    effect: "When a scanner fails, staff can type the code printed under the barcode instead of turning the holder away."))
            }
            if context.isTemplate, !context.subject.isUnknown(path + ".message"), !barcode.message.isEmpty {
                findings.append(Finding(
                    rule: "barcode.sameMessage", severity: .warning, location: context.at(path + ".message"),
                    before: context.subject.quote(path + ".message") + " in the template",
                    after: JSONTree.member("message", .string("{{barcode}}")) + " (a code generated per pass)",
                    effect: "Each holder gets their own code, so one screenshot can't be scanned by everyone and a code can be revoked alone."))
            }
        }
        return findings
    }

    /// Whole words up to `limit` characters (at least the first word, cut).
    static func shortened(_ text: String, to limit: Int) -> String {
        var result = ""
        for word in text.split(separator: " ") {
            let next = result.isEmpty ? String(word) : result + " " + word
            guard next.count <= limit else { break }
            result = next
        }
        return result.isEmpty ? String(text.prefix(limit)) : result
    }

    /// What kind of pass it is, in words, for a description.
    static func noun(for pass: Pass) -> String {
        switch pass.style {
        case .boardingPass?: return "boarding pass"
        case .coupon?: return "coupon"
        case .eventTicket?: return "event ticket"
        case .storeCard?: return "store card"
        default: return "membership card"
        }
    }

    static func styleDictionaries(_ pass: Pass) -> [(key: String, fields: PassFields)] {
        var result = pass.presentStyles.compactMap { style in pass[style].map { (key: style.key, fields: $0) } }
        if let poster = pass.posterGeneric { result.append((key: "posterGeneric", fields: poster)) }
        return result
    }
}
