import Foundation

/// The drawn elements of the console's chart markup, read with regular expressions: the markup is
/// the server's own (attributes always double-quoted), so a full HTML parser is not needed to check
/// that what a chart draws is what the report says.
struct ChartMarkup {
    /// An element's tag and attributes, values unescaped.
    struct Element {
        let tag: String
        let attributes: [String: String]

        subscript(name: String) -> String? { attributes[name] }
        func number(_ name: String) -> Double? { attributes[name].flatMap(Double.init) }
        var value: Int? { attributes["data-value"].flatMap { Int($0) } }
    }

    let html: String

    init(_ html: String) { self.html = html }

    /// The markup of the `<section class="chart" id="…">` with `id`, or nil.
    func chart(_ id: String) -> ChartMarkup? {
        guard let start = html.range(of: "<section class=\"chart\" id=\"\(id)\""),
              let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return ChartMarkup(String(html[start.lowerBound..<end.upperBound]))
    }

    /// The markup of the first `<svg …>…</svg>`, or nil.
    var svg: ChartMarkup? {
        guard let start = html.range(of: "<svg"), let end = html.range(of: "</svg>", range: start.upperBound..<html.endIndex) else { return nil }
        return ChartMarkup(String(html[start.lowerBound..<end.upperBound]))
    }

    /// The markup of the first `<table …>…</table>`, or nil.
    var table: ChartMarkup? {
        guard let start = html.range(of: "<table"), let end = html.range(of: "</table>", range: start.upperBound..<html.endIndex) else { return nil }
        return ChartMarkup(String(html[start.lowerBound..<end.upperBound]))
    }

    /// Every start tag named `tag`, in order.
    func elements(_ tag: String) -> [Element] {
        let pattern = try! Regex<(Substring, Substring)>("<" + tag + "\\b([^>]*)>")
        return html.matches(of: pattern).map { match in
            var attributes: [String: String] = [:]
            for attribute in match.output.1.matches(of: /([a-zA-Z0-9:-]+)="([^"]*)"/) {
                attributes[String(attribute.output.1)] = Self.unescape(String(attribute.output.2))
            }
            return Element(tag: tag, attributes: attributes)
        }
    }

    /// The table's numbers: series → period (or name) → the `<data value>` of its cell.
    func tableValues(key: String = "data-period") -> [String: [String: Int]] {
        var values: [String: [String: Int]] = [:]
        let cell = try! Regex<(Substring, Substring, Substring, Substring)>(
            "<td data-series=\"([^\"]+)\" " + key + "=\"([^\"]+)\"><data value=\"(-?[0-9]+)\">")
        for match in html.matches(of: cell) {
            values[String(match.output.1), default: [:]][Self.unescape(String(match.output.2))] = Int(match.output.3)
        }
        return values
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
