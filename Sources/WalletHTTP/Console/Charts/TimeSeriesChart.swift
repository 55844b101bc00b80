import WalletCore

/// A chart of counts over the report's periods: paired bars (installs beside removals) or lines (active
/// passes and devices), with every template version published in the range marked on the time axis
/// (a vertical line labelled `v3` at its day), so a change after a version shows where it began.
///
/// Every drawn value carries `data-series`, `data-period` and `data-value`, the raw count the bar's
/// height or the point's position was drawn from: tests and scripts read the chart's numbers from the
/// SVG and compare them with the API's.
struct TimeSeriesChart: Sendable {
    enum Style: Sendable {
        /// One bar per series side by side in each period: for counts of events in the period.
        case bars
        /// One line per series through the periods, the first with its area filled: for levels at
        /// each period's end (active passes, devices).
        case lines
    }

    let id: String
    let title: String
    /// The value axis's title (`Passes`, `Pushes`).
    let valueTitle: String
    let data: TimeSeries
    let style: Style
    /// What "Nothing yet:" is followed by when every value is zero.
    let emptyMessage: String

    /// At most this many period labels fit under the axis; between them periods go unlabelled.
    static let maxAxisLabels = 10

    private let canvas = ChartCanvas.timeSeries

    var html: HTML {
        guard !data.isEmpty else { return ChartFigure.nothingYet(id: id, title: title, message: emptyMessage) }
        return ChartFigure(
            id: id, title: title, description: description,
            legend: data.series.enumerated().map { ChartFigure.LegendEntry(className: "series-\($0.offset + 1)", label: $0.element.label) },
            canvas: canvas, drawing: [valueAxis, timeAxis, style == .bars ? bars : lines, markers].joined, table: table
        ).html
    }

    private var scale: ChartScale { ChartScale(maximum: data.maximum) }
    private var band: Double { canvas.plotWidth / Double(max(data.periods.count, 1)) }
    private var unit: String { data.interval == .week ? "week" : "day" }

    private func x(_ period: Int) -> Double { canvas.plotLeft + Double(period) * band }
    private func y(_ value: Int) -> Double { canvas.plotBottom - scale.fraction(value) * canvas.plotHeight }
    private func f(_ value: Double) -> String { ChartCanvas.format(value) }
    private func periodLabel(_ index: Int) -> String { CivilDay(data.periods[index])?.shortLabel ?? data.periods[index] }

    /// The sentence a screen reader hears with the chart's name.
    private var description: String {
        let first = data.periods.first ?? "", last = data.periods.last ?? ""
        var sentence = data.periods.count == 1 ? "The \(unit) of \(first)." : "Each \(unit) from \(first) to \(last)."
        var highest: (value: Int, series: String, period: String)?
        for series in data.series {
            for (index, value) in series.values.enumerated() where value > (highest?.value ?? 0) {
                highest = (value, series.label, data.periods[index])
            }
        }
        if let highest { sentence += " Highest: \(highest.value) (\(highest.series), \(highest.period))." }
        if !data.marks.isEmpty {
            sentence += " Template versions published: " + data.marks.map { "\($0.label) on \($0.day)" }.joined(separator: ", ") + "."
        }
        return sentence
    }

    /// Grid lines and tick labels up the left, and the axis's title turned along it.
    private var valueAxis: HTML {
        let ticks = scale.ticks.map { tick -> HTML in
            let at = f(y(tick))
            return """
                <line class="grid" x1="\(f(canvas.plotLeft))" x2="\(f(canvas.plotRight))" y1="\(at)" y2="\(at)"/>\
                <text class="tick" x="\(f(canvas.plotLeft - 8))" y="\(f(y(tick) + 4))" text-anchor="end">\(ChartScale.label(tick))</text>
                """
        }
        return """
            <g class="value-axis">\(ticks)
            <text class="axis-title" transform="translate(14 \(f(canvas.plotTop + canvas.plotHeight / 2))) rotate(-90)" text-anchor="middle">\(valueTitle)</text></g>
            """
    }

    /// The base line, a label under every period (or every few, when many), and the axis's title.
    private var timeAxis: HTML {
        let every = (data.periods.count - 1) / Self.maxAxisLabels + 1
        let labels = data.periods.indices.filter { $0 % every == 0 }.map { index -> HTML in
            "<text class=\"tick\" x=\"\(f(x(index) + band / 2))\" y=\"\(f(canvas.plotBottom + 18))\" text-anchor=\"middle\">\(periodLabel(index))</text>"
        }
        let axisTitle = data.interval == .week ? "Week starting Monday (UTC)" : "Day (UTC)"
        return """
            <g class="time-axis"><line class="axis" x1="\(f(canvas.plotLeft))" x2="\(f(canvas.plotRight))" y1="\(f(canvas.plotBottom))" y2="\(f(canvas.plotBottom))"/>
            \(labels)
            <text class="axis-title" x="\(f(canvas.plotLeft + canvas.plotWidth / 2))" y="\(f(canvas.height - 10))" text-anchor="middle">\(axisTitle)</text></g>
            """
    }

    /// The series side by side in each period, a group at most 32 units wide per series.
    private var bars: HTML {
        let count = Double(data.series.count)
        let groupWidth = min(band * 0.8, 32 * count), barWidth = groupWidth / count
        let rects = data.periods.indices.flatMap { period in
            data.series.enumerated().map { index, series -> HTML in
                let value = series.values[period]
                // A tenth of each bar's slot stays empty, so neighbouring bars do not touch.
                let left = x(period) + (band - groupWidth) / 2 + Double(index) * barWidth + barWidth * 0.05
                let height = scale.fraction(value) * canvas.plotHeight
                return """
                    <rect class="bar series-\(index + 1)" x="\(f(left))" y="\(f(canvas.plotBottom - height))" width="\(f(barWidth * 0.9))" height="\(f(height))" \
                    data-series="\(series.key)" data-period="\(data.periods[period])" data-value="\(value)"><title>\(series.label), \(data.periods[period]): \(value)</title></rect>
                    """
            }
        }
        return "<g class=\"bars\">\(rects)</g>"
    }

    /// A line per series through the periods' centres with a dot at each value; the first series's
    /// area is filled down to the axis.
    private var lines: HTML {
        let centre = { (period: Int) in self.x(period) + self.band / 2 }
        let drawn = data.series.enumerated().map { index, series -> HTML in
            let points = series.values.enumerated().map { "\(f(centre($0.offset))),\(f(y($0.element)))" }
            let area: HTML = index == 0 && series.values.count > 1
                ? """
                    <polygon class="area series-1" points="\(f(centre(0))),\(f(canvas.plotBottom)) \(points.joined(separator: " ")) \(f(centre(series.values.count - 1))),\(f(canvas.plotBottom))"/>
                    """
                : .empty
            let line: HTML = series.values.count > 1 ? "<polyline class=\"line series-\(index + 1)\" points=\"\(points.joined(separator: " "))\"/>" : .empty
            let dots = series.values.enumerated().map { period, value -> HTML in
                """
                <circle class="point series-\(index + 1)" cx="\(f(centre(period)))" cy="\(f(y(value)))" r="3.5" \
                data-series="\(series.key)" data-period="\(data.periods[period])" data-value="\(value)"><title>\(series.label), \(data.periods[period]): \(value)</title></circle>
                """
            }
            return "\(area)\(line)\(dots)"
        }
        return "<g class=\"lines\">\(drawn)</g>"
    }

    /// A vertical line at each version's day, labelled above the plot. A label that would overlap the
    /// one before it (versions a few days apart) drops to a line of its own just inside the plot.
    private var markers: HTML {
        var lastLabelled = -Double.infinity, row = 0
        let drawn = data.marks.map { mark -> HTML in
            let at = x(mark.period) + mark.offset * band
            row = at - lastLabelled < Self.markLabelWidth ? (row + 1) % 2 : 0
            lastLabelled = at
            let nearEnd = at > canvas.plotRight - Self.markLabelWidth
            let labelY = row == 0 ? canvas.plotTop - 10 : canvas.plotTop + 12
            return """
                <g class="marker" data-template="\(mark.template)" data-version="\(mark.version)" data-day="\(mark.day.description)" data-period="\(data.periods[mark.period])">\
                <line x1="\(f(at))" x2="\(f(at))" y1="\(f(canvas.plotTop - 6))" y2="\(f(canvas.plotBottom))"/>\
                <text x="\(f(nearEnd ? at - 4 : at + 4))" y="\(f(labelY))" text-anchor="\(nearEnd ? "end" : "start")">\(mark.label)</text>\
                <title>\(mark.template) version \(mark.version) published \(mark.day.description)</title></g>
                """
        }
        return drawn.isEmpty ? .empty : "<g class=\"markers\">\(drawn)</g>"
    }

    /// The room a version's label takes beside its line.
    private static let markLabelWidth = 60.0

    /// The numbers drawn, a row per period, with the versions published in it.
    private var table: HTML {
        let headers = data.series.map { "<th scope=\"col\">\($0.label)</th>" as HTML }
        let hasMarks = !data.marks.isEmpty
        let rows = data.periods.indices.map { period -> HTML in
            let cells = data.series.map { series -> HTML in
                "<td data-series=\"\(series.key)\" data-period=\"\(data.periods[period])\">\(ConsolePage.number(series.values[period]))</td>"
            }
            let marks = data.marks(at: period).map { "\($0.label) (\($0.day.description))" }.joined(separator: ", ")
            return "<tr><th scope=\"row\">\(data.periods[period])</th>\(cells)\(hasMarks ? "<td>\(marks)</td>" as HTML : .empty)</tr>"
        }
        return """
            <table id="\(id)-table"><caption>\(title), each \(unit) (UTC)</caption>
            <thead><tr><th scope="col">\(data.interval == .week ? "Week starting" : "Day")</th>\(headers)\(hasMarks ? "<th scope=\"col\">Template version published</th>" as HTML : .empty)</tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
