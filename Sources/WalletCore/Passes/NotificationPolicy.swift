import Foundation
import PassCompiler
import PassModel

/// The etiquette of changes that show the holder a notification (a field with a `changeMessage`
/// whose value changes): never overnight in the holder's local time, never within minutes of the
/// previous one for the same pass — such a change is held and later edits fold into it. Silent
/// refreshes go out at once.
public struct NotificationPolicy: Sendable {
    /// Whether notifying changes are ever held.
    public var enabled: Bool
    /// Quiet hours for templates whose `passwright.json` does not set them; `nil`: none.
    public var quietHours: QuietHours?
    /// The least time between two notifications for one pass.
    public var spacing: Duration

    /// Creates a policy.
    public init(enabled: Bool = true, quietHours: QuietHours? = QuietHours(start: 22 * 60, end: 7 * 60), spacing: Duration = .seconds(300)) {
        self.enabled = enabled
        self.quietHours = quietHours
        self.spacing = spacing
    }

    /// Quiet 22:00–07:00 in the holder's zone, five minutes between notifications.
    public static let standard = NotificationPolicy()
    /// Every change goes out at once.
    public static let off = NotificationPolicy(enabled: false, quietHours: nil, spacing: .zero)

    /// When a notifying change to `pass` may go out, `nil` for now: after the quiet hours around
    /// `now` in the holder's zone, and no sooner than `spacing` after the last notification.
    func release(of pass: Pass, settings: TemplateSettings, lastNotified: Date?, now: Date) -> Date? {
        guard enabled else { return nil }
        var release: Date?
        if let last = lastNotified {
            let earliest = last.addingTimeInterval(Double(spacing.components.seconds))
            if earliest > now { release = earliest }
        }
        let hours: QuietHours? = switch settings.quietHours {
        case .serverDefault: quietHours
        case .off: nil
        case .hours(let hours): hours
        }
        if let hours {
            let from = release ?? now
            let offset = Self.secondsFromGMT(of: pass) ?? settings.timeZone.secondsFromGMT(for: from)
            if let end = hours.end(around: from, secondsFromGMT: offset) { release = end }
        }
        return release
    }

    /// The holder's offset as the pass tells it: its relevant date's zone, else one hour per 15° of
    /// longitude of its first location (solar time: no time zone database reaches this far, and
    /// a holder near a location is within an hour or so of it).
    static func secondsFromGMT(of pass: Pass) -> Int? {
        if let date = pass.relevantDate { return date.secondsFromGMT }
        if let relevant = pass.relevantDates.first, let date = relevant.startDate ?? relevant.date { return date.secondsFromGMT }
        if let location = pass.locations.first { return Int((location.longitude / 15).rounded()) * 3600 }
        return nil
    }
}
