import WalletCore

/// What a chart over time draws: the report's periods, one or more counts per period, and where the
/// template versions published in the range fall on the time axis.
///
/// Built only from a report, so every series has exactly one value per period and a version mark
/// always names a period of the report: a chart cannot draw a value at a period that is not there.
struct TimeSeries: Sendable {
    /// One line or one bar per period.
    struct Series: Sendable {
        /// The `data-series` name (the report's field, `installed`), for tests and scripts.
        let key: String
        /// The legend's and the table's name for it (`Installs`).
        let label: String
        /// One value per period, in the periods' order.
        let values: [Int]
    }

    /// A template version published within the range.
    struct Mark: Sendable {
        let template: String
        let version: Int
        let day: CivilDay
        /// The period the day falls in.
        let period: Int
        /// How far into that period the day is, 0 (its first day) up to 6/7 for a week's last day.
        let offset: Double
        /// The label on the axis: `v3`, or `loyalty v3` when the report covers every template.
        let label: String
    }

    /// Each period's first day as the report gives it (`yyyy-MM-dd`).
    let periods: [String]
    let interval: AnalyticsReport.Interval
    let series: [Series]
    let marks: [Mark]

    /// The counts `series` reads from each of `report`'s periods.
    init(_ report: AnalyticsReport, series: [(key: String, label: String, value: (AnalyticsReport.Period) -> Int)]) {
        periods = report.periods.map(\.start)
        interval = report.interval
        self.series = series.map { item in Series(key: item.key, label: item.label, values: report.periods.map(item.value)) }
        marks = Self.marks(report)
    }

    /// The largest value drawn.
    var maximum: Int { series.flatMap(\.values).max() ?? 0 }

    /// Whether there is nothing to draw: no period, or nothing but zeros.
    var isEmpty: Bool { !series.contains { $0.values.contains { $0 != 0 } } }

    /// The marks of the period at `index`.
    func marks(at index: Int) -> [Mark] { marks.filter { $0.period == index } }

    /// Each version at the period its day falls in (a period runs from its first day to the day before
    /// the next one starts, the last one for the interval's length). A day outside every period, or a
    /// period start that is not a day, leaves the version unmarked rather than marked at a guess.
    private static func marks(_ report: AnalyticsReport) -> [Mark] {
        let starts = report.periods.map { CivilDay($0.start) }
        let length = report.interval == .week ? 7 : 1
        return report.versions.compactMap { version -> Mark? in
            guard let day = CivilDay(version.day),
                  let index = starts.lastIndex(where: { $0.map { $0 <= day } ?? false }),
                  let start = starts[index], day.number - start.number < length
            else { return nil }
            let label = report.template == nil ? "\(version.template) v\(version.version)" : "v\(version.version)"
            return Mark(template: version.template, version: version.version, day: day, period: index,
                        offset: Double(day.number - start.number) / Double(length), label: label)
        }
    }
}
