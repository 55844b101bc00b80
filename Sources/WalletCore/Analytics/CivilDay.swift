import Foundation

/// A UTC calendar day as the analytics count it: whole days since 1970-01-01, read and written as
/// `yyyy-MM-dd`. Pure arithmetic (Howard Hinnant's `days_from_civil`), so no calendar or time zone
/// can shift a day.
public struct CivilDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    public let number: Int

    public init(number: Int) { self.number = number }

    /// The day of `milliseconds` since 1970 (rounded down).
    public init(milliseconds: Int64) {
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        number = Int(remainder < 0 ? quotient - 1 : quotient)
    }

    /// Reads `yyyy-MM-dd`; `nil` for anything else, or a day that does not exist (`2026-02-30`).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    /// The UTC day `date` falls on.
    public init(_ date: Date) {
        self.init(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The day's year, month (1–12) and day of the month.
    public var components: (year: Int, month: Int, day: Int) {
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `yyyy-MM-dd`.
    public var description: String {
        let (year, month, day) = components
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The Monday of the day's week (ISO weeks start on Monday; 1970-01-01 was a Thursday).
    public var monday: CivilDay {
        let weekday = ((number + 3) % 7 + 7) % 7
        return CivilDay(number: number - weekday)
    }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> CivilDay { CivilDay(number: number + days) }

    public static func < (left: CivilDay, right: CivilDay) -> Bool { left.number < right.number }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
