import Foundation
import PassModel

/// How the service treats a template's passes, from the template's optional `passwright.json`
/// (never packaged into a pass):
///
/// ```json
/// { "quietHours": "22:00-07:00", "timeZone": "Europe/Berlin" }
/// ```
/// `quietHours` is when a change that shows the holder a notification is held back (`"off"` for
/// never; without it, the server's default); `timeZone` is the holders' zone when a pass has no
/// relevant date or location to tell its own (UTC without it).
public struct TemplateSettings: Sendable, Hashable {
    /// A template's quiet hours.
    public enum QuietHoursSetting: Sendable, Hashable {
        /// The server's default (`serve --quiet-hours`).
        case serverDefault
        /// Never hold a notifying change for the time of day.
        case off
        /// These hours.
        case hours(QuietHours)
    }

    /// When notifying changes wait, in the holder's local time.
    public var quietHours: QuietHoursSetting
    /// The zone of the template's holders, for passes without a zone of their own.
    public var timeZone: TimeZone

    /// A template without `passwright.json`: the server's quiet hours, UTC.
    public static let standard = TemplateSettings(quietHours: .serverDefault, timeZone: .gmt)

    /// Creates settings.
    public init(quietHours: QuietHoursSetting, timeZone: TimeZone) {
        self.quietHours = quietHours
        self.timeZone = timeZone
    }

    /// Reads `passwright.json`; every problem is named with its key.
    public static func parse(_ bytes: Data) throws(PassCompilerError) -> TemplateSettings {
        let file = "passwright.json"
        guard case .object(let object) = try JSONValue.parseTemplateFile(bytes, file: file) else {
            throw .invalidTemplate(file: file, path: "", message: "must be a JSON object")
        }
        var settings = TemplateSettings.standard
        var problems: [String] = []
        for (key, value) in object {
            switch (key, value) {
            case ("quietHours", .string("off")):
                settings.quietHours = .off
            case ("quietHours", .string(let text)):
                if let hours = QuietHours(text) { settings.quietHours = .hours(hours) } else { problems.append("quietHours must be \"HH:MM-HH:MM\" or \"off\", not \"\(text)\"") }
            case ("timeZone", .string(let name)):
                if let zone = TimeZone(identifier: name) { settings.timeZone = zone } else { problems.append("timeZone \"\(name)\" is not a time zone name such as \"Europe/Berlin\"") }
            default:
                problems.append("\(key) is not a setting (quietHours, timeZone) or has the wrong type")
            }
        }
        guard problems.isEmpty else { throw .invalidTemplate(file: file, path: "", message: problems.joined(separator: "; ")) }
        return settings
    }
}

/// A daily stretch of local time, possibly across midnight (22:00–07:00).
public struct QuietHours: Sendable, Hashable {
    /// Minutes after midnight it starts and ends.
    public let start: Int
    public let end: Int

    /// Creates quiet hours from minutes after midnight.
    public init(start: Int, end: Int) {
        precondition((0..<1440).contains(start) && (0..<1440).contains(end), "minutes after midnight")
        self.start = start
        self.end = end
    }

    /// Parses `HH:MM-HH:MM`.
    public init?(_ text: String) {
        let ends = text.split(separator: "-").map { $0.split(separator: ":").compactMap { Int($0) } }
        guard ends.count == 2, ends.allSatisfy({ $0.count == 2 && (0..<24).contains($0[0]) && (0..<60).contains($0[1]) }) else { return nil }
        self.init(start: ends[0][0] * 60 + ends[0][1], end: ends[1][0] * 60 + ends[1][1])
    }

    /// When the quiet hours around `date` end, at `secondsFromGMT`; `nil` when `date` is not in them.
    public func end(around date: Date, secondsFromGMT: Int) -> Date? {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + secondsFromGMT
        let dayStart = local - ((local % 86_400) + 86_400) % 86_400
        let minute = (local - dayStart) / 60
        let inside = start <= end ? (minute >= start && minute < end) : (minute >= start || minute < end)
        guard inside else { return nil }
        // The end is today when it is still ahead, else tomorrow (a stretch across midnight).
        var endLocal = dayStart + end * 60
        if endLocal <= local { endLocal += 86_400 }
        return Date(timeIntervalSince1970: TimeInterval(endLocal - secondsFromGMT))
    }
}
