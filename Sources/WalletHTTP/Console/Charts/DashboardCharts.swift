import WalletCore

/// The dashboard's charts of one analytics report, in the order the page shows them: how many passes
/// are on devices, what came and went (with the template versions marked), what pushes did, and what
/// holder pages led to.
enum DashboardCharts {
    static func all(_ report: AnalyticsReport) -> [HTML] {
        [activePasses(report), installsAndRemovals(report), pushFailures(report), pushes(report), holderPages(report)]
    }

    /// Passes on a device and device registrations at each period's end.
    static func activePasses(_ report: AnalyticsReport) -> HTML {
        TimeSeriesChart(
            id: "chart-active", title: "Active passes and devices", valueTitle: "Count",
            data: TimeSeries(report, series: [
                ("activePasses", "Active passes", { $0.activePasses }), ("devices", "Devices", { $0.devices }),
            ]),
            style: .lines, emptyMessage: "no pass was on a device in this range."
        ).html
    }

    /// Passes added to a first device beside passes whose last device went, per period.
    static func installsAndRemovals(_ report: AnalyticsReport) -> HTML {
        TimeSeriesChart(
            id: "chart-installs", title: "Installs and removals", valueTitle: "Passes",
            data: TimeSeries(report, series: [
                ("installed", "Installs", { $0.counts.installed }), ("removed", "Removals", { $0.counts.removed }),
            ]),
            style: .bars, emptyMessage: "no pass was added to or removed from Wallet in this range."
        ).html
    }

    /// The range's failed pushes by APNs's reason.
    static func pushFailures(_ report: AnalyticsReport) -> HTML {
        RankedBarChart(
            id: "chart-push-failures", title: "Push failures by reason", key: "pushFailures", nameTitle: "APNs reason",
            valueTitle: "Failed pushes", counts: report.pushFailuresByReason, emptyMessage: "no push failed in this range."
        ).html
    }

    /// Pushes APNs accepted beside pushes that failed, per period.
    static func pushes(_ report: AnalyticsReport) -> HTML {
        TimeSeriesChart(
            id: "chart-pushes", title: "Pushes sent and failed", valueTitle: "Pushes",
            data: TimeSeries(report, series: [
                ("pushesSent", "Sent", { $0.counts.pushesSent }), ("pushesFailed", "Failed", { $0.counts.pushesFailed }),
            ]),
            style: .bars, emptyMessage: "no push was sent in this range."
        ).html
    }

    /// Holder pages shown beside passes downloaded from them, per period.
    static func holderPages(_ report: AnalyticsReport) -> HTML {
        TimeSeriesChart(
            id: "chart-holder-pages", title: "Holder page views and downloads", valueTitle: "Count",
            data: TimeSeries(report, series: [
                ("pageViews", "Page views", { $0.counts.pageViews }), ("downloads", "Downloads", { $0.counts.downloads }),
            ]),
            style: .bars, emptyMessage: "no holder page was shown in this range."
        ).html
    }
}
