import Foundation

/// A ZIP (MS-DOS) modification time: local date and time with 2-second steps, 1980 to 2107.
///
/// Computed here in UTC rather than by libzip's `zip_file_set_mtime`, which converts through the
/// process's local time zone: the same inputs must give the same archive bytes on every server.
struct DOSTimestamp: Hashable {
    let time: UInt16
    let date: UInt16

    /// 1980-01-01 00:00:00, the earliest time a ZIP header can hold.
    static let epoch = DOSTimestamp(time: 0, date: 1 << 5 | 1)

    private init(time: UInt16, date: UInt16) {
        self.time = time
        self.date = date
    }

    /// The UTC wall-clock time of `date`, clamped to the years a ZIP header can hold.
    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = parts.year ?? 1980
        guard year >= 1980 else { self = .epoch; return }
        guard year <= 2107 else { self.init(time: 23 << 11 | 59 << 5 | 29, date: 127 << 9 | 12 << 5 | 31); return }
        self.init(time: UInt16(parts.hour! << 11 | parts.minute! << 5 | parts.second! / 2),
                  date: UInt16((year - 1980) << 9 | parts.month! << 5 | parts.day!))
    }
}
