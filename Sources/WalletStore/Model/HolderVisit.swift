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
