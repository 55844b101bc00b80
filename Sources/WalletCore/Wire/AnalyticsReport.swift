/// What `GET /api/v1/analytics` answers and the console's dashboard draws: how a programme is doing,
/// per day or week, from the rollups each event adds to as it is appended (never a scan of passes or
/// events per request).
///
/// Days are UTC calendar days (`2026-12-04`); a week starts on its Monday and is named by that day.
public struct AnalyticsReport: WireValue {
    public static let schemaName = "AnalyticsReport"

    /// How the range is cut into periods.
    public enum Interval: String, Codable, Sendable, CaseIterable {
        case day, week
    }

    /// What happened in a period (or the whole range): each a count of events.
    public struct Counts: Codable, Sendable, Equatable {
        /// Passes issued.
        public var issued: Int
        /// Passes added to a first device (Wallet registered the pass where no device had it).
        public var installed: Int
        /// Passes whose last device went (removed from Wallet, or APNs said the device is gone).
        public var removed: Int
        /// Changes to passes that gave them a new update tag (data, design roll-out, void).
        public var updated: Int
        /// Device registrations added (every device, not only the first).
        public var devicesAdded: Int
        /// Device registrations removed.
        public var devicesRemoved: Int
        /// Pushes APNs accepted.
        public var pushesSent: Int
        /// Pushes that failed, whatever the reason (``AnalyticsReport/pushFailuresByReason``).
        public var pushesFailed: Int
        /// Holder pages shown.
        public var pageViews: Int
        /// Passes downloaded from a holder page's link.
        public var downloads: Int

        public init(
            issued: Int = 0, installed: Int = 0, removed: Int = 0, updated: Int = 0, devicesAdded: Int = 0, devicesRemoved: Int = 0,
            pushesSent: Int = 0, pushesFailed: Int = 0, pageViews: Int = 0, downloads: Int = 0
        ) {
            self.issued = issued
            self.installed = installed
            self.removed = removed
            self.updated = updated
            self.devicesAdded = devicesAdded
            self.devicesRemoved = devicesRemoved
            self.pushesSent = pushesSent
            self.pushesFailed = pushesFailed
            self.pageViews = pageViews
            self.downloads = downloads
        }
    }

    /// One day or week of the range.
    public struct Period: Codable, Sendable, Equatable {
        /// The period's first day, `yyyy-MM-dd` (UTC).
        public var start: String
        public var counts: Counts
        /// Passes on at least one device at the period's end.
        public var activePasses: Int
        /// Device registrations at the period's end.
        public var devices: Int

        public init(start: String, counts: Counts, activePasses: Int, devices: Int) {
            self.start = start
            self.counts = counts
            self.activePasses = activePasses
            self.devices = devices
        }
    }

    /// A template version that became current within the range: where a chart marks its time axis.
    public struct VersionMark: Codable, Sendable, Equatable {
        public var template: String
        public var version: Int
        /// The day it was published, `yyyy-MM-dd` (UTC).
        public var day: String

        public init(template: String, version: Int, day: String) {
            self.template = template
            self.version = version
            self.day = day
        }
    }

    /// The template the report is limited to; `null` for every template. Push counts are per pass
    /// type and device, not per template, so they are the same with or without it.
    @NullWhenAbsent public var template: String?
    /// The first and last day of the range, `yyyy-MM-dd` (UTC), both included.
    public var from: String
    public var to: String
    public var interval: Interval
    /// The whole range's counts.
    public var totals: Counts
    /// Passes on at least one device now.
    public var activePasses: Int
    /// Device registrations now.
    public var devices: Int
    /// The range's periods, oldest first; a period with nothing in it is listed with zeros.
    public var periods: [Period]
    /// The range's failed pushes by APNs's reason (`BadDeviceToken`, `TooManyRequests`, …).
    public var pushFailuresByReason: [String: Int]
    /// Template versions published within the range, oldest first.
    public var versions: [VersionMark]

    public init(
        template: String?, from: String, to: String, interval: Interval, totals: Counts, activePasses: Int, devices: Int,
        periods: [Period], pushFailuresByReason: [String: Int], versions: [VersionMark]
    ) {
        self.template = template
        self.from = from
        self.to = to
        self.interval = interval
        self.totals = totals
        self.activePasses = activePasses
        self.devices = devices
        self.periods = periods
        self.pushFailuresByReason = pushFailuresByReason
        self.versions = versions
    }
}
