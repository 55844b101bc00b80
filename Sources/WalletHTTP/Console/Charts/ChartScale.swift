/// A value axis that starts at zero and ends at a round number: ticks step by 1, 2 or 5 times a power
/// of ten (0, 5, 10, 15 or 0, 2k, 4k, 6k), at most ``maxIntervals`` of them, so a reader can compare
/// bars by eye whatever the counts' size.
///
/// The top is at least the largest value, so the tallest bar reaches at most the top line and every
/// drawn length is `value / top` of the axis: lengths stay proportional to the values.
struct ChartScale: Sendable, Equatable {
    static let maxIntervals = 5

    /// The distance between ticks (at least 1: counts are whole).
    let step: Int
    /// The top tick, a multiple of `step`.
    let top: Int

    /// The scale for values up to `maximum` (an axis of 0 to 1 when everything is zero).
    init(maximum: Int) {
        let maximum = max(maximum, 1)
        // Counts near Int.max cannot get a round top that fits an Int: then the top is the last whole
        // step below Int.max, and a drawn fraction is capped at 1 (such counts are not expected).
        var chosen = Int.max / Self.maxIntervals
        var magnitude = 1
        search: while true {
            for factor in [1, 2, 5] {
                let (candidate, overflow) = factor.multipliedReportingOverflow(by: magnitude)
                guard !overflow else { break search }
                let intervals = (maximum - 1) / candidate + 1
                if intervals <= Self.maxIntervals {
                    chosen = candidate
                    break search
                }
            }
            let (next, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { break search }
            magnitude = next
        }
        step = chosen
        let (top, overflow) = ((maximum - 1) / chosen + 1).multipliedReportingOverflow(by: chosen)
        self.top = overflow ? Int.max / chosen * chosen : top
    }

    /// Every tick from 0 to `top`.
    var ticks: [Int] { Array(stride(from: 0, through: top, by: step)) }

    /// `value`'s share of the axis, 0 to 1.
    func fraction(_ value: Int) -> Double { min(max(Double(value) / Double(top), 0), 1) }

    /// A tick's label: `950`, `2k`, `2.5k`, `1.2M`, `3B`: short enough to sit left of a chart.
    static func label(_ value: Int) -> String {
        let units: [(Int, String)] = [(1_000_000_000_000, "T"), (1_000_000_000, "B"), (1_000_000, "M"), (1_000, "k")]
        for (size, suffix) in units where value.magnitude >= size {
            let tenths = Int((Double(value.magnitude) / Double(size) * 10).rounded())
            let sign = value < 0 ? "-" : ""
            return tenths % 10 == 0 ? "\(sign)\(tenths / 10)\(suffix)" : "\(sign)\(tenths / 10).\(tenths % 10)\(suffix)"
        }
        return String(value)
    }
}
