import Foundation
import Testing
import WalletCore
@testable import WalletHTTP

/// The dashboard's charts against a report with known numbers: what each SVG draws (its `data-value`s,
/// bar lengths, version marks) and its table alternative are the report's numbers, user text is
/// escaped, and an empty report says so instead of drawing.
@Suite struct DashboardChartTests {
    static let days = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"]
    static let installed = [3, 12, 0, 7, 5]
    static let removed = [1, 0, 9, 2, 4]
    static let active = [10, 22, 13, 18, 19]
    static let devices = [11, 25, 14, 20, 22]

    /// Five days of the loyalty template, v3 published on the third.
    static func report(template: String? = "loyalty", versions: [AnalyticsReport.VersionMark]? = nil) -> AnalyticsReport {
        let periods = days.indices.map { index in
            AnalyticsReport.Period(
                start: days[index],
                counts: .init(installed: installed[index], removed: removed[index], pushesSent: [0, 40, 5, 3, 8][index],
                              pushesFailed: [0, 2, 1, 0, 0][index], pageViews: [5, 6, 7, 8, 9][index], downloads: [1, 2, 3, 4, 5][index]),
                activePasses: active[index], devices: devices[index])
        }
        return AnalyticsReport(
            template: template, from: days[0], to: days[4], interval: .day,
            totals: .init(installed: 27, removed: 16, pushesSent: 56, pushesFailed: 3), activePasses: 19, devices: 22, periods: periods,
            pushFailuresByReason: ["BadDeviceToken": 2, "Unregistered": 1],
            versions: versions ?? [.init(template: template ?? "loyalty", version: 3, day: "2026-12-03")])
    }

    static func values(_ elements: [ChartMarkup.Element], series: String) -> [String] {
        elements.filter { $0["data-series"] == series }.map { "\($0["data-period"] ?? "?")=\($0.value ?? -1)" }
    }

    static func expected(_ numbers: [Int]) -> [String] { zip(days, numbers).map { "\($0)=\($1)" } }

    @Test func barsCarryTheReportsNumbersAndTheirHeightsAreProportional() throws {
        let chart = try #require(ChartMarkup(DashboardCharts.installsAndRemovals(Self.report()).markup).chart("chart-installs"))
        let svg = try #require(chart.svg)
        let bars = svg.elements("rect")
        #expect(Self.values(bars, series: "installed") == Self.expected(Self.installed))
        #expect(Self.values(bars, series: "removed") == Self.expected(Self.removed))

        let tallest = try #require(bars.max { ($0.number("height") ?? 0) < ($1.number("height") ?? 0) })
        #expect(tallest.value == 12 && tallest["data-series"] == "installed" && tallest["data-period"] == "2026-12-02")
        let tallestHeight = try #require(tallest.number("height"))
        for bar in bars {
            let height = try #require(bar.number("height")), value = Double(try #require(bar.value))
            #expect(abs(height - tallestHeight * value / 12) < 0.02, "bar \(bar.attributes): height \(height) for \(value)")
            // Every bar stands on the axis.
            #expect(abs((bar.number("y") ?? 0) + height - ChartCanvas.timeSeries.plotBottom) < 0.02)
        }
        #expect(svg.html.contains("role=\"img\"") && svg.html.contains("<title id=\"chart-installs-title\">Installs and removals</title>"))
        #expect(svg.html.contains("<desc id=\"chart-installs-desc\">") && svg.html.contains("Day (UTC)") && svg.html.contains(">Passes</text>"))
    }

    @Test func linesCarryActivePassesAndDevicesAtProportionalHeights() throws {
        let chart = try #require(ChartMarkup(DashboardCharts.activePasses(Self.report()).markup).chart("chart-active"))
        let points = try #require(chart.svg).elements("circle")
        #expect(Self.values(points, series: "activePasses") == Self.expected(Self.active))
        #expect(Self.values(points, series: "devices") == Self.expected(Self.devices))
        let bottom = ChartCanvas.timeSeries.plotBottom
        let highest = try #require(points.first { $0.value == 25 })
        let rise = bottom - (highest.number("cy") ?? 0)
        for point in points {
            let value = Double(try #require(point.value))
            #expect(abs((bottom - (point.number("cy") ?? 0)) - rise * value / 25) < 0.02, "point \(point.attributes)")
        }
        #expect(chart.html.contains("<polyline class=\"line series-1\"") && chart.html.contains("<polygon class=\"area series-1\""))
    }

    @Test func aVersionIsMarkedAtTheStartOfItsDay() throws {
        let svg = try #require(ChartMarkup(DashboardCharts.installsAndRemovals(Self.report()).markup).chart("chart-installs")?.svg)
        let marker = try #require(svg.elements("g").first { $0["class"] == "marker" })
        #expect(marker["data-version"] == "3" && marker["data-period"] == "2026-12-03" && marker["data-day"] == "2026-12-03")
        #expect(svg.html.contains(">v3</text>"))
        // The line sits between the bars of 2 December and those of 3 December.
        let line = try #require(ChartMarkup(String(svg.html[svg.html.range(of: "class=\"marker\"")!.lowerBound...])).elements("line").first)
        let x = try #require(line.number("x1"))
        let bars = svg.elements("rect")
        let before = bars.filter { $0["data-period"] == "2026-12-02" }.map { ($0.number("x") ?? 0) + ($0.number("width") ?? 0) }.max() ?? .infinity
        let after = bars.filter { $0["data-period"] == "2026-12-03" }.map { $0.number("x") ?? 0 }.min() ?? -.infinity
        #expect(before < x && x < after, "marker at \(x), bars of the 2nd end at \(before), of the 3rd start at \(after)")
    }

    @Test func aVersionIsMarkedInsideItsWeekAndOnlyWithinTheRange() throws {
        var report = Self.report(template: nil, versions: [
            .init(template: "loyalty", version: 3, day: "2026-12-09"), .init(template: "coupon", version: 2, day: "2026-11-20"),
        ])
        report.interval = .week
        report.periods = Array(report.periods.prefix(3))
        for (index, start) in ["2026-11-30", "2026-12-07", "2026-12-14"].enumerated() { report.periods[index].start = start }
        report.from = "2026-11-30"
        report.to = "2026-12-20"
        let svg = try #require(ChartMarkup(DashboardCharts.installsAndRemovals(report).markup).chart("chart-installs")?.svg)
        let markers = svg.elements("g").filter { $0["class"] == "marker" }
        #expect(markers.count == 1, "the version of 20 November is before the range's first week")
        #expect(markers.first?["data-period"] == "2026-12-07" && markers.first?["data-template"] == "loyalty")
        #expect(svg.html.contains(">loyalty v3</text>"), "a report of every template names the version's template")
        // Wednesday is two sevenths into its week's slot.
        let canvas = ChartCanvas.timeSeries, band = canvas.plotWidth / 3
        let line = try #require(ChartMarkup(String(svg.html[svg.html.range(of: "class=\"marker\"")!.lowerBound...])).elements("line").first)
        #expect(abs((line.number("x1") ?? 0) - (canvas.plotLeft + band + band * 2 / 7)) < 0.02)
        #expect(svg.html.contains("Week starting Monday (UTC)"))
    }

    @Test func theTableHoldsTheNumbersDrawn() throws {
        for (html, id) in [(DashboardCharts.installsAndRemovals(Self.report()), "chart-installs"), (DashboardCharts.activePasses(Self.report()), "chart-active"),
                           (DashboardCharts.pushes(Self.report()), "chart-pushes"), (DashboardCharts.holderPages(Self.report()), "chart-holder-pages")] {
            let chart = try #require(ChartMarkup(html.markup).chart(id))
            let drawn = try #require(chart.svg).elements("rect") + (try #require(chart.svg)).elements("circle")
            var fromSVG: [String: [String: Int]] = [:]
            for element in drawn { fromSVG[element["data-series"]!, default: [:]][element["data-period"]!] = element.value }
            let table = try #require(chart.table)
            #expect(!fromSVG.isEmpty && table.tableValues() == fromSVG, "\(id)")
            #expect(table.html.contains("<caption>") && table.html.components(separatedBy: "<th scope=\"row\">").count - 1 == Self.days.count)
            #expect(chart.html.contains("<details class=\"numbers\"><summary>"))
        }
        let installs = try #require(ChartMarkup(DashboardCharts.installsAndRemovals(Self.report()).markup).chart("chart-installs")?.table)
        #expect(installs.html.contains("<th scope=\"row\">2026-12-03</th>") && installs.html.contains("<td>v3 (2026-12-03)</td>"))
    }

    @Test func pushFailuresAreRankedBarsInProportion() throws {
        var report = Self.report()
        report.pushFailuresByReason = ["TooManyRequests": 4_000, "BadDeviceToken": 12_000, "Unregistered": 4_000, "Shutdown": 0]
        let chart = try #require(ChartMarkup(DashboardCharts.pushFailures(report).markup).chart("chart-push-failures"))
        let bars = try #require(chart.svg).elements("rect")
        #expect(bars.map { "\($0["data-name"]!)=\($0.value!)" } == ["BadDeviceToken=12000", "TooManyRequests=4000", "Unregistered=4000"])
        let widest = try #require(bars.first?.number("width"))
        for bar in bars { #expect(abs((bar.number("width") ?? 0) - widest * Double(bar.value!) / 12_000) < 0.02) }
        #expect(try #require(chart.table).tableValues(key: "data-name") == ["pushFailures": ["BadDeviceToken": 12_000, "TooManyRequests": 4_000, "Unregistered": 4_000]])
        #expect(chart.html.contains(">5k</text>") && chart.html.contains(">15k</text>"), "ticks in thousands read 0, 5k, 10k, 15k")
    }

    @Test func templateNamesAreEscapedEverywhere() throws {
        let name = "<script>alert(\"x\")</script>"
        let report = Self.report(template: name)
        let filter = DashboardFilter(template: name, from: CivilDay("2026-12-01")!, to: CivilDay("2026-12-05")!, interval: .day)
        let html = ConsoleRoutes.dashboardBody(report: report, templates: ["loyalty", name], filter: filter).markup
        #expect(!html.contains("<script"), "a template's name reached the page as markup")
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
        let marker = try #require(ChartMarkup(html).elements("g").first { $0["class"] == "marker" })
        #expect(marker["data-template"] == name)
        #expect(html.contains("<option value=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\" selected>"))
    }

    @Test(arguments: [0, 1])
    func anEmptyReportSaysNothingYet(periods: Int) throws {
        var report = Self.report(versions: [])
        report.periods = Array(report.periods.prefix(periods)).map { .init(start: $0.start, counts: .init(), activePasses: 0, devices: 0) }
        report.pushFailuresByReason = [:]
        report.totals = .init()
        report.activePasses = 0
        report.devices = 0
        for chart in DashboardCharts.all(report) {
            #expect(chart.markup.contains("<p class=\"empty\">Nothing yet: ") && !chart.markup.contains("<svg"), "\(chart.markup)")
        }
        let body = ConsoleRoutes.dashboardBody(report: report, templates: [], filter: DashboardFilter(
            template: "loyalty", from: CivilDay("2026-12-01")!, to: CivilDay("2026-12-05")!, interval: .day)).markup
        #expect(body.contains("<dl id=\"figure-devices-per-pass\"><dt>Devices per active pass</dt><dd>—</dd></dl>"))
    }

    @Test func onePeriodIsDrawn() throws {
        var report = Self.report()
        report.periods = [report.periods[1]]
        let bars = try #require(ChartMarkup(DashboardCharts.installsAndRemovals(report).markup).chart("chart-installs")?.svg).elements("rect")
        #expect(bars.map { "\($0["data-series"]!)=\($0.value!)" } == ["installed=12", "removed=0"])
        #expect(bars.allSatisfy { ($0.number("width") ?? 0) <= 32 }, "one period's bars stay narrow")
        let active = try #require(ChartMarkup(DashboardCharts.activePasses(report).markup).chart("chart-active"))
        #expect(active.svg?.elements("circle").count == 2 && !active.html.contains("<polyline"))
    }

    @Test(arguments: [
        (0, [0, 1]), (1, [0, 1]), (3, [0, 1, 2, 3]), (12, [0, 5, 10, 15]), (100, [0, 20, 40, 60, 80, 100]),
        (7_000, [0, 2_000, 4_000, 6_000, 8_000]), (4_900_000_000, [0, 1_000_000_000, 2_000_000_000, 3_000_000_000, 4_000_000_000, 5_000_000_000]),
    ])
    func axesTickAtRoundNumbers(maximum: Int, ticks: [Int]) {
        let scale = ChartScale(maximum: maximum)
        #expect(scale.ticks == ticks)
        #expect(scale.top >= maximum && scale.fraction(maximum) <= 1)
    }

    @Test func tickLabelsAreShort() {
        #expect([0, 5, 950, 2_000, 2_500, 1_500_000, 3_000_000_000].map(ChartScale.label) == ["0", "5", "950", "2k", "2.5k", "1.5M", "3B"])
        let huge = ChartScale(maximum: .max)
        #expect(huge.top > 0 && huge.fraction(.max) == 1 && huge.ticks.count <= ChartScale.maxIntervals + 1)
    }

    @Test func theFiguresAreText() {
        let filter = DashboardFilter(template: "loyalty", from: CivilDay("2026-12-01")!, to: CivilDay("2026-12-05")!, interval: .day)
        let html = ConsoleRoutes.dashboardBody(report: Self.report(), templates: ["loyalty"], filter: filter).markup
        for (id, value) in [("active-passes", "<data value=\"19\">19</data>"), ("devices", "<data value=\"22\">22</data>"), ("devices-per-pass", "1.16"),
                            ("installed", "<data value=\"27\">27</data>"), ("removed", "<data value=\"16\">16</data>"), ("pushes-failed", "<data value=\"3\">3</data>")] {
            #expect(html.contains(try! Regex("<dl id=\"figure-\(id)\"><dt>[^<]+</dt><dd>\(value)</dd></dl>")), "\(id)")
        }
        #expect(html.contains("Template <strong>loyalty</strong>, each day from 2026-12-01 to 2026-12-05 (UTC)."))
        #expect(!html.contains("style=") && !html.contains("<script"), "the console's CSP allows no inline style or script")
        for id in ["chart-active", "chart-installs", "chart-push-failures", "chart-pushes", "chart-holder-pages"] {
            #expect(html.contains("<section class=\"chart\" id=\"\(id)\""), "\(id)")
        }
        #expect(html.contains("<input type=\"date\" name=\"from\" id=\"dashboard-from\" value=\"2026-12-01\""))
        #expect(html.contains("<option value=\"day\" selected>Day</option>"))
    }
}

extension DashboardChartTests {
    @Test func manyPeriodsAreDrawnWithEveryFewLabelled() throws {
        var report = Self.report(versions: [.init(template: "loyalty", version: 4, day: "2026-12-20"), .init(template: "loyalty", version: 5, day: "2026-12-21")])
        let first = CivilDay("2026-12-01")!
        report.periods = (0..<60).map { AnalyticsReport.Period(start: first.adding(days: $0).description, counts: .init(installed: $0 * 100), activePasses: 0, devices: 0) }
        let svg = try #require(ChartMarkup(DashboardCharts.installsAndRemovals(report).markup).chart("chart-installs")?.svg)
        #expect(svg.elements("rect").filter { $0["data-series"] == "installed" }.map { $0.value! } == (0..<60).map { $0 * 100 })
        let dayLabels = svg.elements("text").filter { $0["y"] == ChartCanvas.format(ChartCanvas.timeSeries.plotBottom + 18) }
        #expect((6...TimeSeriesChart.maxAxisLabels).contains(dayLabels.count), "\(dayLabels.count) day labels")
        // Versions a day apart: the second label drops below the first.
        let labels = svg.elements("g").filter { $0["class"] == "marker" }.map { $0["data-version"]! }
        #expect(labels == ["4", "5"])
        #expect(svg.html.contains(">v4</text>") && svg.html.contains(">v5</text>"))
        let markerTexts = svg.html.matches(of: /<text x="[0-9.]+" y="([0-9.]+)" text-anchor="[a-z]+">v[45]<\/text>/).map { String($0.output.1) }
        #expect(Set(markerTexts).count == 2, "labels at heights \(markerTexts)")
    }
}

extension DashboardChartTests {
    /// The charts are coloured by class only: every class they draw with has a rule in console.css, and
    /// every colour it uses is set for both colour schemes.
    @Test func theStylesheetColoursEveryChartClassInBothSchemes() throws {
        let css = String(decoding: try #require(try ConsoleAssets.load().files["console.css"]).data, as: UTF8.self)
        for selector in [".bar.series-1", ".bar.series-2", ".line.series-1", ".line.series-2", ".area.series-1", ".point.series-1", ".point.series-2",
                         ".grid", ".axis", ".marker", ".swatch.series-1", ".swatch.series-2", "details.numbers summary", ".figures"] {
            #expect(css.contains(selector + " "), "console.css has no rule for \(selector)")
        }
        let dark = try #require(css.range(of: "@media (prefers-color-scheme: dark) {\n  :root { --series-1"))
        for variable in ["--series-1", "--series-2", "--grid", "--marker"] {
            #expect(css[..<dark.lowerBound].contains("\(variable): #") && css[dark.lowerBound...].contains("\(variable): #"), "\(variable) in light and dark")
        }
    }
}
