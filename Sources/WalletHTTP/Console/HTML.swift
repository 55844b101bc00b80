import WalletCore
/// Markup that is safe by construction: interpolated strings are escaped, interpolated `HTML` is
/// inserted as it is. A console page can only carry a value into the page as text.
struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    let markup: String

    init(stringLiteral value: String) { markup = value }
    init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }
    init(raw markup: String) { self.markup = markup }

    var description: String { markup }

    static let empty = HTML(raw: "")

    struct Interpolation: StringInterpolationProtocol {
        var markup = ""
        init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity * 2) }
        mutating func appendLiteral(_ literal: String) { markup += literal }
        mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }
        mutating func appendInterpolation(_ text: String?) { markup += HTML.escape(text ?? "") }
        mutating func appendInterpolation(_ html: HTML) { markup += html.markup }
        mutating func appendInterpolation(_ list: [HTML]) { for item in list { markup += item.markup } }
        mutating func appendInterpolation<Number: BinaryInteger>(_ number: Number) { markup += String(number) }
    }

    /// Escapes text for element content and quoted attribute values alike.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}

extension Array where Element == HTML {
    /// The items one after another.
    var joined: HTML { HTML(raw: map(\.markup).joined()) }
}
