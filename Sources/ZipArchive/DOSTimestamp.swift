import Foundation

/// A ZIP (MS-DOS) modification time: date and time with 2-second steps, 1980 to 2107.
///
/// Computed here, in UTC, rather than by libzip's `zip_file_set_mtime`, which converts through the
/// process's local time zone: the same inputs must give the same archive bytes on every server.
struct DOSTimestamp: Hashable {
    let time: UInt16
    let date: UInt16

    /// The UTC wall-clock time of `date`, clamped to the years a ZIP header can hold.
    init(_ date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, day) = Self.civilDate(daysSince1970: dayNumber)
        switch year {
        case ..<1980:
            (time, self.date) = (0, 1 << 5 | 1) // 1980-01-01 00:00:00
        case 2108...:
            (time, self.date) = (23 << 11 | 59 << 5 | 29, 127 << 9 | 12 << 5 | 31) // 2107-12-31 23:59:58
        default:
            time = UInt16((second / 3600) << 11 | (second % 3600 / 60) << 5 | (second % 60 / 2))
            self.date = UInt16((year - 1980) << 9 | month << 5 | day)
        }
    }

    /// Gregorian year, month and day of a day count since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`), so no `Calendar` is built for every archive.
    private static func civilDate(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
