/// One counter of a range read by ``WalletStore/analytics(template:fromDay:toDay:perVersion:)``: its
/// shards summed, and its templates and versions too unless read per version.
public struct AnalyticsRollup: Sendable, Hashable {
    /// UTC days since 1970-01-01.
    public let day: Int
    /// The pass's template (`''` for what is per pass type, pushes); `nil` when summed over templates.
    public let template: String?
    /// The pass's template version (0 when none); `nil` when summed over versions.
    public let version: Int64?
    /// What it counts.
    public let metric: AnalyticsMetric
    /// Its shards' sum.
    public let count: Int

    public init(day: Int, template: String?, version: Int64?, metric: AnalyticsMetric, count: Int) {
        (self.day, self.template, self.version, self.metric, self.count) = (day, template, version, metric, count)
    }
}

/// What a report over a range of days is computed from, read from the rollups alone.
public struct AnalyticsRollups: Sendable {
    /// The range's counters, by day and metric (and template and version when asked for).
    public let rollups: [AnalyticsRollup]
    /// Passes on at least one device and device registrations at the end of the day before the range
    /// (every earlier `installed − removed` and `devicesAdded − devicesRemoved`).
    public let activePassesBefore: Int
    /// See ``activePassesBefore``.
    public let devicesBefore: Int
    /// The same balances' changes after the range (none when it ends today): before + range + after is now.
    public let activePassesAfter: Int
    /// See ``activePassesAfter``.
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
