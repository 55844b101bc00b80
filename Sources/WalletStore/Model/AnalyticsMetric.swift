/// What an analytics rollup counts. Each write that makes the change adds to its counter in its own
/// transaction (``WalletStore/rollups(of:)`` says which events count as what).
public enum AnalyticsMetric: Sendable, Hashable {
    /// A pass was issued.
    case issued
    /// A pass got a new update tag (its data changed, a design roll-out reached it, it was voided or erased).
    case updated
    /// A pass reached its first device.
    case installed
    /// A pass lost its last device.
    case removed
    /// A device registered for a pass.
    case devicesAdded
    /// A device's registration for a pass went (unregistered, or removed after APNs's answer or an erasure).
    case devicesRemoved
    /// APNs accepted a push.
    case pushesSent
    /// A push failed, with APNs's reason (or the worker's, e.g. no identity for the pass type).
    case pushFailed(reason: String)
    /// A holder page was shown.
    case pageViews
    /// A pass was downloaded from a holder page.
    case downloads

    /// The prefix of a failed push's stored name; the reason follows it.
    static let pushFailedPrefix = "push.failed:"

    /// The longest reason kept: APNs's reasons are short words; a longer text is cut, so a counter's
    /// key stays small whatever a caller passes.
    static let maximumReasonLength = 100

    /// The name stored in `analytics_rollups.metric`.
    public var name: String {
        switch self {
        case .issued: "pass.issued"
        case .updated: "pass.updated"
        case .installed: "pass.installed"
        case .removed: "pass.removed"
        case .devicesAdded: "devices.added"
        case .devicesRemoved: "devices.removed"
        case .pushesSent: "push.sent"
        case .pushFailed(let reason): Self.pushFailedPrefix + String(reason.prefix(Self.maximumReasonLength))
        case .pageViews: "holder.page_view"
        case .downloads: "holder.download"
        }
    }

    /// The metric stored as `name`, `nil` for a name this build does not know.
    public init?(name: String) {
        if name.hasPrefix(Self.pushFailedPrefix) {
            self = .pushFailed(reason: String(name.dropFirst(Self.pushFailedPrefix.count)))
            return
        }
        guard let metric = Self.byName[name] else { return nil }
        self = metric
    }

    /// The metrics without a reason, by stored name: a report decodes a row per day and metric.
    private static let byName: [String: AnalyticsMetric] = Dictionary(uniqueKeysWithValues: [
        AnalyticsMetric.issued, .updated, .installed, .removed, .devicesAdded, .devicesRemoved, .pushesSent, .pageViews, .downloads,
    ].map { ($0.name, $0) })
}

/// A visit to a holder page, counted by ``WalletStore/recordHolderVisit(_:pass:)``.
public enum HolderVisit: Sendable, Hashable {
    /// The page was shown.
    case pageView
    /// The pass was downloaded from it.
    case download

    var metric: AnalyticsMetric {
        switch self {
        case .pageView: .pageViews
        case .download: .downloads
        }
    }
}

/// One counter of a range read by ``WalletStore/analytics(template:fromDay:toDay:perVersion:)``: its
/// shards summed, and its templates and versions too unless read per version.
public struct AnalyticsRollup: Sendable, Hashable {
    /// UTC days since 1970-01-01.
    public let day: Int
    /// The pass's template (`''` for what is per pass type, pushes); `nil` when summed over templates.
    public let template: String?
    /// The pass's template version (0 when none); `nil` when summed over versions.
    public let version: Int64?
    public let metric: AnalyticsMetric
    public let count: Int

    public init(day: Int, template: String?, version: Int64?, metric: AnalyticsMetric, count: Int) {
        (self.day, self.template, self.version, self.metric, self.count) = (day, template, version, metric, count)
    }
}

/// What a report over a range of days is computed from, read from the rollups alone.
public struct AnalyticsRollups: Sendable {
    /// The range's counters, by day, template, version and metric.
    public let rollups: [AnalyticsRollup]
    /// Passes on at least one device and device registrations at the end of the day before the range
    /// (every earlier `installed − removed` and `devicesAdded − devicesRemoved`).
    public let activePassesBefore: Int
    public let devicesBefore: Int
    /// The same balances' changes after the range (none when it ends today): before + range + after is now.
    public let activePassesAfter: Int
    public let devicesAfter: Int
    /// Template versions uploaded within the range (the template's own when one was asked for), oldest first.
    public let versions: [(template: String, version: Int64, day: Int)]

    public init(
        rollups: [AnalyticsRollup], activePassesBefore: Int, devicesBefore: Int, activePassesAfter: Int, devicesAfter: Int,
        versions: [(template: String, version: Int64, day: Int)]
    ) {
        self.rollups = rollups
        self.activePassesBefore = activePassesBefore
        self.devicesBefore = devicesBefore
        self.activePassesAfter = activePassesAfter
        self.devicesAfter = devicesAfter
        self.versions = versions
    }
}

/// Passes on at least one device and device registrations now, per template (Prometheus gauges).
public struct AnalyticsTotals: Sendable, Equatable {
    public let activePasses: [String: Int]
    public let devices: [String: Int]

    public init(activePasses: [String: Int], devices: [String: Int]) {
        self.activePasses = activePasses
        self.devices = devices
    }
}
