import Foundation
import PassModel

/// Recognises field values that are dates or amounts of money typed as text — the whole value, never
/// a date inside a sentence — and gives the typed value Wallet would format per locale.
enum TextValues {
    private static let months = ["january", "february", "march", "april", "may", "june", "july", "august",
                                 "september", "october", "november", "december"]

    /// An ISO 8601 date (midnight UTC, shown with `ignoresTimeZone`) for `June 15, 2026`,
    /// `15 June 2026`, `Jun 15 2026`, `15/06/2026`, `06/15/2026`, `15.06.2026`, `2026-06-15`;
    /// numeric day/month order is taken as day first unless only month first is possible.
    static func date(in text: String) -> String? {
        let words = text.lowercased().replacingOccurrences(of: ",", with: " ")
            .split(whereSeparator: { $0 == " " }).map(String.init)
        var parts: (year: Int, month: Int, day: Int)?
        if words.count == 3 {
            if let month = month(words[0]), let day = Int(words[1]), let year = Int(words[2]) {
                parts = (year, month, day)
            } else if let day = Int(words[0].trimmingCharacters(in: CharacterSet(charactersIn: "."))), let month = month(words[1]), let year = Int(words[2]) {
                parts = (year, month, day)
            }
        } else if words.count == 1 {
            let numbers = words[0].split(whereSeparator: { "/.-".contains($0) }).compactMap { Int($0) }
            let separators = words[0].filter { "/.-".contains($0) }
            if numbers.count == 3, separators.count == 2, Set(separators).count == 1 {
                if String(words[0].prefix(4)).allSatisfy(\.isNumber), separators.first == "-" {
                    parts = (numbers[0], numbers[1], numbers[2])
                } else if numbers[2] >= 1000 {
                    parts = numbers[1] > 12 ? (numbers[2], numbers[0], numbers[1]) : (numbers[2], numbers[1], numbers[0])
                }
            }
        }
        guard let (year, month, day) = parts, (1...12).contains(month), (1...31).contains(day), (1900...2999).contains(year) else { return nil }
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let iso = "\(year)-\(pad(month))-\(pad(day))T00:00:00Z"
        return W3CDate(iso) == nil ? nil : iso
    }

    private static func month(_ word: String) -> Int? {
        let word = word.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard word.count >= 3 else { return nil }
        return months.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    private static let symbols: [(String, String)] = [("US$", "USD"), ("$", "USD"), ("€", "EUR"), ("£", "GBP"), ("¥", "JPY"), ("₹", "INR"), ("CHF", "CHF")]

    /// The amount and ISO 4217 code of `$49.99`, `49,99 €`, `€ 12`, `USD 12.50`, `12.50 EUR`.
    static func money(in text: String) -> (amount: Double, currency: String)? {
        var rest = text.trimmingCharacters(in: .whitespaces)
        var currency: String?
        for (symbol, code) in symbols where currency == nil {
            if rest.hasPrefix(symbol) { rest.removeFirst(symbol.count); currency = code }
            else if rest.hasSuffix(symbol) { rest.removeLast(symbol.count); currency = code }
        }
        if currency == nil {
            let words = rest.split(separator: " ")
            if words.count == 2 {
                for (index, word) in words.enumerated() where word.count == 3 && word.allSatisfy({ $0.isASCII && $0.isUppercase }) {
                    currency = String(word)
                    rest = String(words[1 - index])
                }
            }
        }
        guard let currency else { return nil }
        rest = rest.trimmingCharacters(in: .whitespaces)
        guard !rest.isEmpty, rest.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }), rest.first!.isNumber else { return nil }
        // The last separator followed by one or two digits is the decimal mark; the others group thousands.
        var normalized = rest
        if let mark = rest.lastIndex(where: { $0 == "." || $0 == "," }), rest.distance(from: mark, to: rest.endIndex) <= 3 {
            let whole = rest[..<mark].filter(\.isNumber)
            normalized = whole + "." + rest[rest.index(after: mark)...]
        } else {
            normalized = rest.filter(\.isNumber)
        }
        return Double(normalized).map { ($0, currency) }
    }
}
