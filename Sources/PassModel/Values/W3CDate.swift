import Foundation

/// A W3C date-time as Wallet reads it: date, hours and minutes, optional seconds, and a zone that
/// ends the string, exactly `Z` or `±HH:MM` (Apple's Pass reference). `+0000`, `ZZ`, a space, or no zone are rejected,
/// because the device refuses them ("Unable to parse relevantDate").
///
/// The original UTC offset is kept (not converted to UTC), since `ignoresTimeZone` shows a field in
/// the value's own zone. Fractional seconds are accepted but dropped: Passwright writes
/// `yyyy-MM-dd'T'HH:mm:ssXXX`, the form every Wallet version parses.
public struct W3CDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    private let epochSeconds: Int64
    /// The zone offset written with the date, in seconds east of UTC (a whole number of minutes).
    public let secondsFromGMT: Int

    /// Creates a date in the given zone offset; fractional seconds are truncated.
    /// `secondsFromGMT` is rounded to whole minutes and limited to ±23:59, the range `±HH:MM` can spell.
    public init(date: Date, secondsFromGMT: Int = 0) {
        epochSeconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let minutes = max(-(24 * 60 - 1), min(24 * 60 - 1, secondsFromGMT / 60))
        self.secondsFromGMT = minutes * 60
    }

    /// Parses the strict W3C form; `nil` when Wallet would not accept the string.
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private init(epochSeconds: Int64, secondsFromGMT: Int) {
        self.epochSeconds = epochSeconds
        self.secondsFromGMT = secondsFromGMT
    }

    /// The instant.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(epochSeconds)) }

    /// The Apple spelling, e.g. `2025-12-09T13:00:00-05:00` (`Z` for UTC).
    public var description: String {
        let local = epochSeconds + Int64(secondsFromGMT)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        // Built as bytes: this runs for every date of every pass in a batch.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(25)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4); bytes.append(UInt8(ascii: "-")); digits(month, 2); bytes.append(UInt8(ascii: "-")); digits(day, 2)
        bytes.append(UInt8(ascii: "T")); digits(secondOfDay / 3600, 2); bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2); bytes.append(UInt8(ascii: ":")); digits(secondOfDay % 60, 2)
        if secondsFromGMT == 0 {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            let offset = abs(secondsFromGMT) / 60
            bytes.append(secondsFromGMT < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            digits(offset / 60, 2); bytes.append(UInt8(ascii: ":")); digits(offset % 60, 2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (lhs: W3CDate, rhs: W3CDate) -> Bool { lhs.epochSeconds < rhs.epochSeconds }

    private static func parse(_ s: UnsafeBufferPointer<UInt8>) -> W3CDate? {
        // yyyy-MM-ddTHH:mm is 16 bytes; the shortest valid string adds "Z".
        guard s.count >= 17 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for index in start..<(start + length) {
                let byte = s[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), s[4] == UInt8(ascii: "-"), let month = number(5, 2), s[7] == UInt8(ascii: "-"),
              let day = number(8, 2), s[10] == UInt8(ascii: "T"), let hour = number(11, 2), s[13] == UInt8(ascii: ":"),
              let minute = number(14, 2) else { return nil }
        var index = 16
        var second = 0
        if s[index] == UInt8(ascii: ":") {
            guard s.count >= index + 4, let parsed = number(index + 1, 2) else { return nil }
            second = parsed
            index += 3
            if s[index] == UInt8(ascii: ".") {
                index += 1
                let fractionStart = index
                while index < s.count, s[index] >= UInt8(ascii: "0"), s[index] <= UInt8(ascii: "9") { index += 1 }
                guard index > fractionStart, index < s.count else { return nil }
            }
        }
        let offset: Int
        switch s[index] {
        case UInt8(ascii: "Z"):
            guard index + 1 == s.count else { return nil }
            offset = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == s.count, let hours = number(index + 1, 2), s[index + 3] == UInt8(ascii: ":"),
                  let minutes = number(index + 4, 2), hours <= 23, minutes <= 59 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (s[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return W3CDate(epochSeconds: local - Int64(offset), secondsFromGMT: offset)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's proleptic Gregorian algorithms: exact, and far cheaper than Calendar.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

extension W3CDate: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .string(let text) = json, let date = W3CDate(text) else {
            throw .mismatch(path, expected: "a W3C date with a time zone like 2025-12-09T13:00:00Z or 2025-12-09T08:00-05:00", found: json)
        }
        self = date
    }

    package func write(to writer: inout JSONWriter) { writer.string(description) }
}
