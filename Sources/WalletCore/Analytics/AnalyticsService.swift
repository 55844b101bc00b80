import Foundation
import PassModel
import WalletStore

/// Programme analytics: the report `GET /api/v1/analytics` and the console's dashboard show, built
/// from the store's daily counters (never a scan of passes or events), and the holder page's visits.
public struct AnalyticsService: Sendable {
    /// A visit to a holder page (shown, or the pass downloaded from it).
    public typealias Visit = HolderVisit

    let store: WalletStore

    /// The longest range of days a report covers: a year and a day, so a leap year fits.
    public static let maximumDays = 366
    /// The most weeks a report covers: two years and a bit.
    public static let maximumWeeks = 106
    /// The days of the default daily range (`from` 29 days before `to`).
    public static let defaultDays = 30
    /// The weeks of the default weekly range.
    public static let defaultWeeks = 12

    /// What a reader asked for, as given (text); ``report(_:)`` checks it.
    public struct Query: Sendable {
        public var template: String?
        public var from: String?
        public var to: String?
        public var interval: String?

        public init(template: String? = nil, from: String? = nil, to: String? = nil, interval: String? = nil) {
            (self.template, self.from, self.to, self.interval) = (template, from, to, interval)
        }
    }

    /// The report for `query`: `to` defaults to today (UTC), `from` to 29 days before it (`day`) or
    /// to the Monday 11 weeks before `to`'s (`week`, so 12 weeks). A weekly range starts on the Monday
    /// of `from`'s week. An unreadable day or interval, `from` after `to` or a range longer than
    /// ``maximumDays`` days or ``maximumWeeks`` weeks is a `ServiceError.invalid` naming the parameter.
    public func report(_ query: Query) async throws -> AnalyticsReport {
        let intervalText = query.interval ?? AnalyticsReport.Interval.day.rawValue
        guard let interval = AnalyticsReport.Interval(rawValue: intervalText) else {
            throw ServiceError.invalid("interval must be day or week, not '\(intervalText)'")
        }
        let to = try query.to.map { try Self.day($0, "to") } ?? CivilDay(milliseconds: store.clock.nowMilliseconds())
        var from = try query.from.map { try Self.day($0, "from") }
            ?? (interval == .day ? to.adding(days: 1 - Self.defaultDays) : to.monday.adding(days: -7 * (Self.defaultWeeks - 1)))
        guard from <= to else { throw ServiceError.invalid("from (\(from)) must be on or before to (\(to))") }
        switch interval {
        case .day:
            guard to.number - from.number + 1 <= Self.maximumDays else {
                throw ServiceError.invalid("from and to span \(to.number - from.number + 1) days; a daily report covers at most \(Self.maximumDays) (use interval=week for longer)")
            }
        case .week:
            from = from.monday
            let weeks = (to.monday.number - from.number) / 7 + 1
            guard weeks <= Self.maximumWeeks else {
                throw ServiceError.invalid("from and to span \(weeks) weeks; a weekly report covers at most \(Self.maximumWeeks)")
            }
        }
        return try await report(template: query.template, from: from, to: to, interval: interval)
    }

    /// The report of the days `from` through `to` (checked by the caller), cut by `interval`.
    func report(template: String?, from: CivilDay, to: CivilDay, interval: AnalyticsReport.Interval) async throws -> AnalyticsReport {
        if let template, try await store.currentTemplateVersion(template) == nil {
            let available = try await store.currentTemplateVersions().keys.sorted()
            throw ServiceError.unknownTemplate(template, available: available)
        }
        let data = try await store.analytics(template: template, fromDay: from.number, toDay: to.number)
        let starts: [CivilDay] = interval == .day
            ? (from.number...to.number).map(CivilDay.init(number:))
            : Array(stride(from: from.number, through: to.number, by: 7)).map(CivilDay.init(number:))
        let length = interval == .day ? 1 : 7
        var counts = Array(repeating: AnalyticsReport.Counts(), count: starts.count)
        var activeChange = Array(repeating: 0, count: starts.count), deviceChange = Array(repeating: 0, count: starts.count)
        var failures: [String: Int] = [:]
        for rollup in data.rollups {
            let index = (rollup.day - from.number) / length
            guard counts.indices.contains(index) else { continue }
            Self.add(rollup, to: &counts[index])
            switch rollup.metric {
            case .installed: activeChange[index] += rollup.count
            case .removed: activeChange[index] -= rollup.count
            case .devicesAdded: deviceChange[index] += rollup.count
            case .devicesRemoved: deviceChange[index] -= rollup.count
            case .pushFailed(let reason): failures[reason, default: 0] += rollup.count
            default: break
            }
        }
        var active = data.activePassesBefore, devices = data.devicesBefore
        var periods: [AnalyticsReport.Period] = []
        for (index, start) in starts.enumerated() {
            active += activeChange[index]
            devices += deviceChange[index]
            periods.append(AnalyticsReport.Period(start: start.description, counts: counts[index], activePasses: active, devices: devices))
        }
        return AnalyticsReport(
            template: template, from: from.description, to: to.description, interval: interval,
            totals: counts.reduce(into: AnalyticsReport.Counts()) { Self.add($1, to: &$0) },
            activePasses: active + data.activePassesAfter, devices: devices + data.devicesAfter, periods: periods, pushFailuresByReason: failures,
            versions: data.versions.map { AnalyticsReport.VersionMark(template: $0.template, version: Int($0.version), day: CivilDay(number: $0.day).description) })
    }

    /// Counts a holder page shown, or a pass downloaded from it, under the pass's template and
    /// version (nothing for an unknown pass). Called by the holder page's routes.
    public func recordHolderVisit(_ visit: Visit, pass: PassKey) async throws {
        try await store.recordHolderVisit(visit, pass: pass)
    }

    /// Passes on at least one device and device registrations now, per template (`/metrics`).
    public func currentTotals() async throws -> (activePasses: [String: Int], devices: [String: Int]) {
        let totals = try await store.analyticsTotals()
        return (totals.activePasses, totals.devices)
    }

    /// Folds the counter shards of the days before today (UTC) into one row per counter, a batch at
    /// a time; returns how many rows went. The retention worker calls it hourly.
    public func compact(now: Date = Date(), batch: Int = 1_000) async throws -> Int {
        let today = CivilDay(milliseconds: Int64((now.timeIntervalSince1970 * 1_000).rounded(.down)))
        return try await RetentionWorker.pruneInBatches(of: batch) { try await store.compactAnalytics(before: today.number, limit: $0) }
    }

    private static func day(_ text: String, _ name: String) throws -> CivilDay {
        guard let day = CivilDay(text) else { throw ServiceError.invalid("\(name) must be a day as yyyy-MM-dd (UTC), such as 2026-12-01, not '\(text)'") }
        return day
    }

    private static func add(_ rollup: AnalyticsRollup, to counts: inout AnalyticsReport.Counts) {
        switch rollup.metric {
        case .issued: counts.issued += rollup.count
        case .installed: counts.installed += rollup.count
        case .removed: counts.removed += rollup.count
        case .updated: counts.updated += rollup.count
        case .devicesAdded: counts.devicesAdded += rollup.count
        case .devicesRemoved: counts.devicesRemoved += rollup.count
        case .pushesSent: counts.pushesSent += rollup.count
        case .pushFailed: counts.pushesFailed += rollup.count
        case .pageViews: counts.pageViews += rollup.count
        case .downloads: counts.downloads += rollup.count
        }
    }

    private static func add(_ more: AnalyticsReport.Counts, to counts: inout AnalyticsReport.Counts) {
        counts.issued += more.issued
        counts.installed += more.installed
        counts.removed += more.removed
        counts.updated += more.updated
        counts.devicesAdded += more.devicesAdded
        counts.devicesRemoved += more.devicesRemoved
        counts.pushesSent += more.pushesSent
        counts.pushesFailed += more.pushesFailed
        counts.pageViews += more.pageViews
        counts.downloads += more.downloads
    }
}
