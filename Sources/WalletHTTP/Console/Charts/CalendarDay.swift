import Foundation

/// A UTC calendar day as the analytics report names it (`2026-12-04`), counted in days since
/// 1970-01-01 so charts can place a day inside a week and the filter can step back a month without
/// a `Calendar` (whose time zone and locale would have to be pinned on every use).
///
/// Only real days exist: `2026-02-30` and `2026-12-4` do not parse, so a chart never places a
/// marker at a day the report could not have named.
struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    let number: Int

    init(number: Int) { self.number = number }

    /// The day `text` names in the `yyyy-MM-dd` form, or nil.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        number = Self.daysFromCivil(year: year, month: month, day: day)
    }

    /// The UTC day `date` falls on.
    init(_ date: Date) {
        number = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    var year: Int { civil.year }
    var month: Int { civil.month }
    var day: Int { civil.day }

    /// `yyyy-MM-dd`.
    var description: String {
        let (year, month, day) = civil
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// A short label for a chart's time axis, `1 Dec`: the year is in the range the page states.
    var shortLabel: String { "\(day) \(Self.monthNames[month - 1])" }

    func adding(days: Int) -> CalendarDay { CalendarDay(number: number + days) }

    static func < (left: CalendarDay, right: CalendarDay) -> Bool { left.number < right.number }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil and civil_from_days: exact for the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private var civil: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
