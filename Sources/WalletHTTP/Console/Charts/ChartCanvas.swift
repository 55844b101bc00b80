/// The drawing area every chart shares: a fixed view box that CSS scales to the page's width, with
/// room left of the plot for tick labels, above it for version labels and below it for the time
/// axis and its title. Coordinates are written with at most two decimals, never in a locale's form.
struct ChartCanvas: Sendable {
    let width: Double
    let height: Double
    let left: Double
    let right: Double
    let top: Double
    let bottom: Double

    /// The time charts' canvas.
    static let timeSeries = ChartCanvas(width: 720, height: 300, left: 64, right: 16, top: 28, bottom: 56)

    var plotLeft: Double { left }
    var plotRight: Double { width - right }
    var plotTop: Double { top }
    var plotBottom: Double { height - bottom }
    var plotWidth: Double { plotRight - plotLeft }
    var plotHeight: Double { plotBottom - plotTop }

    var viewBox: String { "0 0 \(Self.format(width)) \(Self.format(height))" }

    /// `value` rounded to hundredths, without trailing zeros or exponent (`12`, `12.5`, `12.25`).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = hundredths.magnitude / 100, fraction = hundredths.magnitude % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
