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
