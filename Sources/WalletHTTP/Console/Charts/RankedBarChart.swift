/// Named counts as horizontal bars, largest first (push failures by APNs's reason): a bar's length is
/// its count's share of the axis, its name left of it and its count at its end, so long names need no
/// turning and the order answers "what fails most" at a glance.
///
/// Each bar carries `data-series`, `data-name` and `data-value` (the raw count), as the time charts do.
struct RankedBarChart: Sendable {
    let id: String
    let title: String
    /// The `data-series` of every bar (`pushFailures`).
    let key: String
    /// The table's heading of the names (`Reason`) and of the counts (`Failed pushes`, also the axis's title).
    let nameTitle: String
    let valueTitle: String
    /// Largest first; equal counts by name, so the order does not depend on a dictionary's.
    let items: [(name: String, value: Int)]
    /// What "Nothing yet:" is followed by when every count is zero or there are none.
    let emptyMessage: String

    init(id: String, title: String, key: String, nameTitle: String, valueTitle: String, counts: [String: Int], emptyMessage: String) {
        self.id = id
        self.title = title
        self.key = key
        self.nameTitle = nameTitle
        self.valueTitle = valueTitle
        self.items = counts.filter { $0.value != 0 }.map { (name: $0.key, value: $0.value) }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.name < $1.name }
        self.emptyMessage = emptyMessage
    }

    static let rowHeight = 32.0

    var html: HTML {
        guard !items.isEmpty else { return ChartFigure.nothingYet(id: id, title: title, message: emptyMessage) }
        let canvas = ChartCanvas(width: 720, height: 16 + Double(items.count) * Self.rowHeight + 56, left: 200, right: 56, top: 16, bottom: 56)
        let scale = ChartScale(maximum: items.map(\.value).max() ?? 0)
        let f = ChartCanvas.format
        let xAt = { (value: Int) in canvas.plotLeft + scale.fraction(value) * canvas.plotWidth }
        let grid = scale.ticks.map { tick -> HTML in
            """
            <line class="grid" x1="\(f(xAt(tick)))" x2="\(f(xAt(tick)))" y1="\(f(canvas.plotTop))" y2="\(f(canvas.plotBottom))"/>\
            <text class="tick" x="\(f(xAt(tick)))" y="\(f(canvas.plotBottom + 18))" text-anchor="middle">\(ChartScale.label(tick))</text>
            """
        }
        let bars = items.enumerated().map { index, item -> HTML in
            let top = canvas.plotTop + Double(index) * Self.rowHeight
            let length = scale.fraction(item.value) * canvas.plotWidth
            return """
                <text class="name" x="\(f(canvas.plotLeft - 8))" y="\(f(top + Self.rowHeight / 2 + 4))" text-anchor="end">\(item.name)</text>\
                <rect class="bar series-2" x="\(f(canvas.plotLeft))" y="\(f(top + 6))" width="\(f(length))" height="\(f(Self.rowHeight - 12))" \
                data-series="\(key)" data-name="\(item.name)" data-value="\(item.value)"><title>\(item.name): \(item.value)</title></rect>\
                <text class="value" x="\(f(canvas.plotLeft + length + 6))" y="\(f(top + Self.rowHeight / 2 + 4))">\(item.value)</text>
                """
        }
        let drawing: HTML = """
            <g class="value-axis">\(grid)<line class="axis" x1="\(f(canvas.plotLeft))" x2="\(f(canvas.plotLeft))" y1="\(f(canvas.plotTop))" y2="\(f(canvas.plotBottom))"/>
            <text class="axis-title" x="\(f(canvas.plotLeft + canvas.plotWidth / 2))" y="\(f(canvas.height - 10))" text-anchor="middle">\(valueTitle)</text></g>
            <g class="bars">\(bars)</g>
            """
        let rows = items.map { item -> HTML in
            "<tr><th scope=\"row\">\(item.name)</th><td data-series=\"\(key)\" data-name=\"\(item.name)\">\(ConsolePage.number(item.value))</td></tr>"
        }
        let table: HTML = """
            <table id="\(id)-table"><caption>\(title), most first</caption>
            <thead><tr><th scope="col">\(nameTitle)</th><th scope="col">\(valueTitle)</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        let first = items[0]
        let description = "\(items.count) \(items.count == 1 ? "kind" : "kinds"); most: \(first.name) (\(first.value))."
        return ChartFigure(id: id, title: title, description: description, legend: [], canvas: canvas, drawing: drawing, table: table).html
    }
}
