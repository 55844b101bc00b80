import Foundation
import PassModel

/// Field values as Wallet shows them for one locale: `dateStyle`/`timeStyle` (with `isRelative`
/// and `ignoresTimeZone`), `numberStyle` and `currencyCode` (Apple's PassKit field dictionary keys).
struct FieldFormatter {
    let locale: Locale
    let timeZone: TimeZone?

    init(locale: String?, timeZone: TimeZone?) {
        self.locale = Locale(identifier: locale ?? "en")
        self.timeZone = timeZone
    }

    /// The text Wallet shows for `field`'s value; string values are translated first.
    func text(of field: Field, strings: PassStrings) -> String {
        switch field.value {
        case .string(let text): return strings(text)
        case .number(let number): return format(number, style: field.numberStyle, currency: field.currencyCode)
        case .date(let date): return format(date, field: field)
        }
    }

    func format(_ number: Double, style: NumberStyle?, currency: String?) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        if let currency, !currency.isEmpty {
            formatter.numberStyle = .currency
            formatter.currencyCode = currency
        } else {
            switch style {
            case .decimal?: formatter.numberStyle = .decimal
            case .percent?: formatter.numberStyle = .percent
            case .scientific?: formatter.numberStyle = .scientific
            case .spellOut?: formatter.numberStyle = .spellOut
            case nil:
                // Without a style Wallet shows the number as written: no grouping, no rounding.
                return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            }
        }
        return formatter.string(from: NSNumber(value: number)) ?? String(number)
    }

    func format(_ date: W3CDate, field: Field) -> String {
        let dateStyle = field.dateStyle, timeStyle = field.timeStyle
        // A date with neither style is shown as the string in pass.json.
        guard dateStyle != nil || timeStyle != nil else { return date.description }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = Self.style(dateStyle)
        formatter.timeStyle = Self.style(timeStyle)
        formatter.doesRelativeDateFormatting = field.isRelative == true
        if field.ignoresTimeZone == true {
            formatter.timeZone = TimeZone(secondsFromGMT: date.secondsFromGMT)
        } else {
            formatter.timeZone = timeZone ?? TimeZone(secondsFromGMT: date.secondsFromGMT)
        }
        return formatter.string(from: date.date)
    }

    private static func style(_ style: DateStyle?) -> DateFormatter.Style {
        switch style {
        case .short?: return .short
        case .medium?: return .medium
        case .long?: return .long
        case .full?: return .full
        case .none?, nil: return .none
        }
    }
}
