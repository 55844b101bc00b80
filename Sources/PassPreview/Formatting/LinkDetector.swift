import Drawing
import Foundation
import PassModel

/// Finds what Wallet makes tappable in a back field: the links of an `attributedValue`, else what
/// the field's `dataDetectorTypes` detect (all types when the key is absent, none for `[]`).
///
/// Links, e-mail addresses and phone numbers are detected; addresses and calendar events need
/// Apple's data detectors and are drawn as plain text.
enum LinkDetector {
    /// Wallet's link blue (iOS system blue).
    static let linkColor = RGBA(red: 0, green: 122, blue: 255)

    static func runs(for field: Field, text: String) -> [TextRun] {
        if case .string(let attributed)? = field.attributedValue, attributed.contains("<a") {
            return anchors(in: attributed)
        }
        let types = field.dataDetectorTypes ?? DataDetectorType.allCases
        var patterns: [String] = []
        if types.contains(.link) {
            patterns.append(#"(?:https?://|www\.)[^\s<>"]+[^\s<>".,;:!?)]"#)
            patterns.append(#"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#)
        }
        if types.contains(.phoneNumber) { patterns.append(#"\+?\d[\d ()./-]{6,}\d"#) }
        guard !patterns.isEmpty, let expression = try? NSRegularExpression(pattern: patterns.joined(separator: "|")) else {
            return [TextRun(text)]
        }
        let whole = text as NSString
        var runs: [TextRun] = []
        var cursor = 0
        for match in expression.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            if match.range.location > cursor {
                runs.append(TextRun(whole.substring(with: NSRange(location: cursor, length: match.range.location - cursor))))
            }
            runs.append(TextRun(whole.substring(with: match.range), color: linkColor, underlined: false))
            cursor = match.range.location + match.range.length
        }
        if cursor < whole.length { runs.append(TextRun(whole.substring(from: cursor))) }
        return runs.isEmpty ? [TextRun(text)] : runs
    }

    /// `Visit <a href='https://…'>our site</a>` as runs, the anchor text in link blue; other tags
    /// (Wallet allows only `<a>`) are dropped.
    private static func anchors(in html: String) -> [TextRun] {
        guard let expression = try? NSRegularExpression(pattern: #"<a\b[^>]*>(.*?)</a>"#, options: [.caseInsensitive, .dotMatchesLineSeparators]) else {
            return [TextRun(html)]
        }
        let whole = html as NSString
        var runs: [TextRun] = []
        var cursor = 0
        for match in expression.matches(in: html, range: NSRange(location: 0, length: whole.length)) {
            if match.range.location > cursor {
                runs.append(TextRun(unescape(whole.substring(with: NSRange(location: cursor, length: match.range.location - cursor)))))
            }
            runs.append(TextRun(unescape(whole.substring(with: match.range(at: 1))), color: linkColor))
            cursor = match.range.location + match.range.length
        }
        if cursor < whole.length { runs.append(TextRun(unescape(whole.substring(from: cursor)))) }
        return runs
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
