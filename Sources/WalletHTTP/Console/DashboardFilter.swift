import Foundation
import WalletCore

/// What the dashboard shows: one template or all, a range of whole UTC days, cut into days or weeks.
/// Read from the filter form's query (`template`, `from`, `to`, `interval`); a value that is absent
/// takes its default, a value that is wrong is refused with a message saying how to write it, so the
/// analytics service is only ever asked for a range that exists.
struct DashboardFilter: Sendable, Equatable {
    /// The range shown when the form gives none: the last 30 days, today included.
    static let defaultDays = 30
    /// Up to this many days a range is cut into days unless the form says otherwise; longer, into weeks.
    static let dailyUpTo = 62

    /// The template, or nil for every template.
    let template: String?
    /// The first and last day, both included; `from` is never after `to`.
    let from: CivilDay
    let to: CivilDay
    let interval: AnalyticsReport.Interval

    /// The filter `query` (the request's query parameters) asks for, `today` being the last day of a
    /// default range. Throws ``ServiceError/invalid(_:)`` with a message for the form.
    init(query: (String) -> String?, today: CivilDay) throws {
        func given(_ name: String) -> String? {
            query(name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func day(_ name: String, _ label: String) throws -> CivilDay? {
            guard let text = given(name) else { return nil }
            guard let day = CivilDay(text) else {
                throw ServiceError.invalid("\(label) is not a day: write it as year-month-day, for example \(today.description).")
            }
            return day
        }
        let to = try day("to", "To") ?? today
        let from = try day("from", "From") ?? to.adding(days: -(Self.defaultDays - 1))
        guard from <= to else {
            throw ServiceError.invalid("From (\(from.description)) is after To (\(to.description)): the range starts at From and ends at To.")
        }
        let interval: AnalyticsReport.Interval
        if let text = given("interval") {
            guard let chosen = AnalyticsReport.Interval(rawValue: text) else {
                throw ServiceError.invalid("Each must be day or week, not \(text).")
            }
            interval = chosen
        } else {
            interval = to.number - from.number < Self.dailyUpTo ? .day : .week
        }
        self.init(template: given("template"), from: from, to: to, interval: interval)
    }

    /// A filter of a checked range.
    init(template: String?, from: CivilDay, to: CivilDay, interval: AnalyticsReport.Interval) {
        precondition(from <= to, "a dashboard range ends before it starts")
        self.template = template
        self.from = from
        self.to = to
        self.interval = interval
    }
}
