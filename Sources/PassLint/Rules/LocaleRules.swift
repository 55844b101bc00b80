import Foundation
import PassModel

/// Let Wallet format for each reader: dates and money as typed values, natural alignment, and every
/// displayed string translated in every language the template ships.
enum LocaleRules: LintRules {
    static func findings(in context: LintContext) -> [Finding] {
        fieldFindings(context) + localizationFindings(context)
    }

    private static func fieldFindings(_ context: LintContext) -> [Finding] {
        var findings: [Finding] = []
        for (path, field) in context.fields {
            let valuePath = path + ".value"
            if case .string(let text) = field.value, !context.subject.isUnknown(valuePath) {
                if let date = TextValues.date(in: text) {
                    let after: JSONObject = [
                        "value": .string(date), "dateStyle": .string(DateStyle.medium.rawValue),
                        "timeStyle": .string(DateStyle.none.rawValue), "ignoresTimeZone": .bool(true),
                    ]
                    findings.append(Finding(
                        rule: "locale.textDate", severity: .warning, location: context.at(valuePath), before: context.subject.quote(valuePath),
                        after: members(after),
                        effect: "Each holder reads the date in their own language and order (15 juin 2026, 2026/06/15) instead of one country's spelling."))
                } else if let money = TextValues.money(in: text) {
                    let after: JSONObject = ["value": .number(money.amount), "currencyCode": .string(money.currency)]
                    findings.append(Finding(
                        rule: "locale.textMoney", severity: .warning, location: context.at(valuePath), before: context.subject.quote(valuePath),
                        after: members(after),
                        effect: "The amount shows with the holder's own decimal separator and currency placement, so 49,99 € never reads as 4999."))
                }
            }
            let alignmentPath = path + ".textAlignment"
            if let alignment = field.textAlignment, alignment == .left || alignment == .right,
               !path.contains(".primaryFields["), !path.contains(".backFields[") {
                findings.append(Finding(
                    rule: "locale.textAlignment", severity: .warning, location: context.at(alignmentPath),
                    before: context.subject.quote(alignmentPath),
                    after: JSONTree.member("textAlignment", .string(TextAlignment.natural.rawValue)),
                    effect: "In Arabic and Hebrew the field lines up from the right like the rest of the pass instead of sitting mirrored."))
            }
        }
        return findings
    }

    private static func localizationFindings(_ context: LintContext) -> [Finding] {
        guard let localizations = context.files?.localizations, !localizations.isEmpty else { return [] }
        var findings: [Finding] = []
        let languages = localizations.keys.sorted()
        var allKeys: [String: (language: String, value: String)] = [:]
        for language in languages {
            for (key, value) in localizations[language]!.entries where allKeys[key] == nil { allKeys[key] = (language, value) }
        }
        for language in languages {
            let strings = localizations[language]!
            for key in allKeys.keys.sorted() where strings[key] == nil {
                let source = allKeys[key]!
                findings.append(Finding(
                    rule: "localization.missingKey", severity: .warning, location: "\(language).lproj/pass.strings",
                    before: "\"\(key)\" missing (defined in \(source.language).lproj)",
                    after: "\"\(key)\" = \"\(source.value)\";",
                    effect: "Readers in this language see the text translated, not one string left in \(source.language) among their own."))
            }
        }
        var seen: Set<String> = []
        for (path, text) in context.pass.displayedStrings where needsTranslation(text) && !context.subject.isUnknown(path) {
            // Outside a template's own text, values and codes are the holder's data, not text to translate.
            let isData = path.hasSuffix(".value") || path.hasSuffix(".attributedValue") || path.hasSuffix(".altText")
            guard context.isTemplate || !isData, allKeys[text] == nil, seen.insert(text).inserted else { continue }
            findings.append(Finding(
                rule: "localization.untranslated", severity: .warning, location: context.at(path), before: context.subject.quote(path),
                after: "\"\(text)\" = \"…\"; in " + languages.map { "\($0).lproj/pass.strings" }.joined(separator: ", "),
                effect: "Readers of every language the template ships get this text in their language instead of in the template's."))
        }
        return findings
    }

    /// Prose a translator would translate: not an e-mail address, URL, number or code.
    static func needsTranslation(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("://") || (trimmed.contains("@") && !trimmed.contains(" ")) { return false }
        return trimmed.split(separator: " ").contains { word in word.count >= 2 && word.allSatisfy(\.isLetter) }
    }

    /// JSON members separated by `, `, the After form that merges into the field.
    static func members(_ object: JSONObject) -> String {
        object.map { JSONTree.member($0.key, $0.value) }.joined(separator: ", ")
    }
}
