import Foundation
import OrderModel
import PassModel

/// Money and dates as the picture shows them: in English, each date in the offset it was written
/// with (how the merchant's customer, in that zone, reads it). The previewer has no locale option,
/// and the order's own text is not translated either, so the two match.
struct OrderFormatter {
    private let locale = Locale(identifier: "en")

    /// `amount` times `quantity` with its currency's symbol and decimals (`€29.00`, `¥1,200`).
    func money(_ amount: CurrencyAmount, times quantity: Int = 1) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .currency
        formatter.currencyCode = amount.currency.code
        let total = amount.amount * Decimal(quantity)
        return formatter.string(from: NSDecimalNumber(decimal: total)) ?? "\(total) \(amount.currency.code)"
    }

    /// The day alone: `May 12, 2025`.
    func day(_ date: W3CDate) -> String {
        dateFormatter(date, dateStyle: .medium).string(from: date.date)
    }

    /// A weekday and day with the time (`Wed, May 14, 9:00 AM`), or with the window from it when
    /// `window` has a fixed length (`Wed, May 14, 9:00 AM – 1:00 PM`). `showsTime` false gives the
    /// day alone when there is no window: Apple ignores the time of an estimated delivery without one.
    func moment(_ date: W3CDate, window: ISODuration? = nil, showsTime: Bool = true) -> String {
        let day = dateFormatter(date, template: "EEEMMMd").string(from: date.date)
        let time = dateFormatter(date, timeStyle: .short)
        guard let length = window?.fixedSeconds else {
            return showsTime ? "\(day), \(time.string(from: date.date))" : day
        }
        let end = date.date.addingTimeInterval(length)
        let endDay = dateFormatter(date, template: "EEEMMMd").string(from: end)
        let until = endDay == day ? time.string(from: end) : "\(endDay), \(time.string(from: end))"
        return "\(day), \(time.string(from: date.date)) – \(until)"
    }

    private func dateFormatter(_ date: W3CDate, dateStyle: DateFormatter.Style = .none, timeStyle: DateFormatter.Style = .none,
                               template: String? = nil) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(secondsFromGMT: date.secondsFromGMT)
        formatter.dateStyle = dateStyle
        formatter.timeStyle = timeStyle
        if let template { formatter.setLocalizedDateFormatFromTemplate(template) }
        return formatter
    }
}
