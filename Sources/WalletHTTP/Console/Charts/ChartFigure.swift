/// One chart on a page, as the console draws every chart: a heading, a legend in text, the SVG
/// picture and, under it, the same numbers as a table in a `<details>`.
///
/// The picture is `role="img"` named by its `<title>` and described by its `<desc>` (a sentence with
/// the range, the largest value and the version marks), so a screen reader gets the gist at once and
/// the table for the detail. Colours come from classes only (`series-1`, `series-2`, `marker`): the
/// console's CSP allows no inline style, and console.css gives each class a colour per colour scheme.
struct ChartFigure: Sendable {
    /// A legend entry: the series' class (its colour) and its name.
    struct LegendEntry: Sendable {
        let className: String
        let label: String
    }

    /// The element id prefix, unique on the page (`chart-installs`).
    let id: String
    let title: String
    let description: String
    let legend: [LegendEntry]
    let canvas: ChartCanvas
    /// The SVG's content below its title and description.
    let drawing: HTML
    /// The table of the numbers drawn, caption included.
    let table: HTML

    var html: HTML {
        let legendItems = legend.map { entry -> HTML in
            "<li><span class=\"swatch \(entry.className)\"></span>\(entry.label)</li>"
        }
        return """
            <section class="chart" id="\(id)" aria-labelledby="\(id)-heading">
            <h2 id="\(id)-heading">\(title)</h2>
            \(legend.count > 1 ? "<ul class=\"legend\">\(legendItems)</ul>" as HTML : .empty)
            <svg class="chart-drawing" viewBox="\(canvas.viewBox)" role="img" aria-labelledby="\(id)-title" aria-describedby="\(id)-desc" focusable="false">
            <title id="\(id)-title">\(title)</title>
            <desc id="\(id)-desc">\(description)</desc>
            \(drawing)
            </svg>
            <details class="numbers"><summary>\(title): the numbers</summary>
            <div class="scroll">\(table)</div>
            </details>
            </section>
            """
    }

    /// What stands in for a chart with nothing to draw: its heading and why there is no picture.
    static func nothingYet(id: String, title: String, message: String) -> HTML {
        """
        <section class="chart" id="\(id)" aria-labelledby="\(id)-heading">
        <h2 id="\(id)-heading">\(title)</h2>
        <p class="empty">Nothing yet: \(message)</p>
        </section>
        """
    }
}
