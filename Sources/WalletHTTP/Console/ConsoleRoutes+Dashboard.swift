import Foundation
import HTTPServer
import WalletCore

/// The programme dashboard in the console: the figures that say how a programme is doing (passes on
/// devices, installs and removals, pushes, holder pages) for one template or all, over a range of
/// days or weeks, as text at the top and as charts drawn on the server (no script; each with its
/// numbers as a table).
///
/// The figures come from the analytics service's report (the same value `GET /api/v1/analytics`
/// answers), which the caller of ``dashboardRoutes(report:)`` supplies: the page never computes a
/// figure of its own.
extension ConsoleRoutes {
    /// The dashboard's entry in the console's navigation (``ConsolePage/sections``).
    static let dashboardSection = (path: "/console/dashboard", title: "Dashboard", needs: ConsoleNeed.scope(.analyticsRead))

    /// The report a filter asks for: the analytics service's, passed in where the routes are grouped.
    typealias DashboardReport = @Sendable (DashboardFilter) async throws -> AnalyticsReport

    /// `GET /console/dashboard`, drawing what `report` answers for the filter in the query.
    func dashboardRoutes(report: @escaping DashboardReport) -> [Route] {
        [signed(.get, "/dashboard", "Programme dashboard", needs: Self.dashboardSection.needs) { request, _, signed in
            try await dashboard(request, signed, today: CivilDay(Date()), report: report)
        }]
    }

    /// The dashboard for a request, with the templates the form lists.
    func dashboard(_ request: HTTPRequest, _ signed: Signed, today: CivilDay, report: DashboardReport) async throws -> HTTPResponse {
        try await Self.dashboardResponse(
            query: { request.query($0) }, templates: try await templates.library.statuses().keys.sorted(), csrf: signed.csrf, role: signed.role,
            today: today, report: report)
    }

    /// The dashboard for a query: its filter read (a wrong one, or an unknown template, is shown back in
    /// the form with why, 422), the report fetched for it, the page drawn.
    static func dashboardResponse(query: (String) -> String?, templates: [String], csrf: String, role: ConsoleRole, today: CivilDay,
                                  report: DashboardReport) async throws -> HTTPResponse {
        func refused(_ message: String) -> HTTPResponse {
            let form = dashboardForm(
                templates: templates, template: query("template"), from: query("from") ?? "", to: query("to") ?? "",
                interval: query("interval").flatMap(AnalyticsReport.Interval.init(rawValue:)))
            return ConsolePage.page("Dashboard", section: dashboardSection.path, csrf: csrf, role: role, error: message, status: .unprocessableContent, form)
        }
        do {
            let filter = try DashboardFilter(query: query, today: today)
            return dashboardPage(report: try await report(filter), templates: templates, filter: filter, csrf: csrf, role: role)
        } catch ServiceError.invalid(let message) {
            return refused(message)
        } catch ServiceError.unknownTemplate(let name, _) {
            return refused("There is no template \(name). Choose one from the list, or all templates.")
        }
    }

    /// The whole dashboard page of `report`, fetched for `filter`; `templates` fill the form's list.
    static func dashboardPage(report: AnalyticsReport, templates: [String], filter: DashboardFilter, csrf: String, role: ConsoleRole) -> HTTPResponse {
        ConsolePage.page("Dashboard", section: dashboardSection.path, csrf: csrf, role: role, dashboardBody(report: report, templates: templates, filter: filter))
    }

    /// The page's content: the filter form, the figures as text, then the charts.
    static func dashboardBody(report: AnalyticsReport, templates: [String], filter: DashboardFilter) -> HTML {
        """
        \(dashboardForm(templates: templates, template: filter.template, from: filter.from.description, to: filter.to.description, interval: filter.interval))
        \(dashboardFigures(report))
        \(DashboardCharts.all(report))
        """
    }

    /// The range, then what is true now and what happened in the range, as numbers in text.
    static func dashboardFigures(_ report: AnalyticsReport) -> HTML {
        let scope: HTML = report.template.map { "Template <strong>\($0)</strong>" } ?? "All templates"
        let perPass: HTML = report.activePasses > 0
            ? "\(ChartCanvas.format(Double(report.devices) / Double(report.activePasses)))"
            : "—"
        // A list of one term each: axe-core's dlitem rule refuses <div> groups inside one <dl>.
        let figure = { (id: String, label: String, value: HTML) -> HTML in
            "<dl id=\"figure-\(id)\"><dt>\(label)</dt><dd>\(value)</dd></dl>"
        }
        return """
            <p id="dashboard-range">\(scope), each \(report.interval == .week ? "week" : "day") from \(report.from) to \(report.to) (UTC).</p>
            <div class="figures" id="dashboard-figures">
            \(figure("active-passes", "Active passes now", ConsolePage.number(report.activePasses)))
            \(figure("devices", "Devices now", ConsolePage.number(report.devices)))
            \(figure("devices-per-pass", "Devices per active pass", perPass))
            \(figure("installed", "Installs in the range", ConsolePage.number(report.totals.installed)))
            \(figure("removed", "Removals in the range", ConsolePage.number(report.totals.removed)))
            \(figure("pushes-failed", "Pushes failed in the range", ConsolePage.number(report.totals.pushesFailed)))
            </div>
            """
    }

    /// The filter form, showing `template`, `from`, `to` and `interval` as chosen (or as typed, when
    /// they were refused).
    static func dashboardForm(templates: [String], template: String?, from: String, to: String, interval: AnalyticsReport.Interval?) -> HTML {
        let selected = { (chosen: Bool) -> HTML in chosen ? " selected" : "" }
        let templateOptions = [HTML("<option value=\"\"\(selected(template == nil || template == ""))>All templates</option>")]
            + templates.map { name in HTML("<option value=\"\(name)\"\(selected(name == template))>\(name)</option>") }
        let intervalOptions = AnalyticsReport.Interval.allCases.map { each -> HTML in
            "<option value=\"\(each.rawValue)\"\(selected(each == interval))>\(each == .week ? "Week (from Monday)" : "Day")</option>"
        }
        return """
            <form id="dashboard-filter" method="get" action="/console/dashboard" class="filters">
            <div><label for="dashboard-template">Template</label>
            <select name="template" id="dashboard-template">\(templateOptions)</select></div>
            <div><label for="dashboard-from">From</label>
            <input type="date" name="from" id="dashboard-from" value="\(from)" aria-describedby="dashboard-days-hint"></div>
            <div><label for="dashboard-to">To</label>
            <input type="date" name="to" id="dashboard-to" value="\(to)" aria-describedby="dashboard-days-hint"></div>
            <div><label for="dashboard-interval">Each</label>
            <select name="interval" id="dashboard-interval">\(intervalOptions)</select></div>
            <p class="hint" id="dashboard-days-hint">Whole days in UTC, both included.</p>
            <button type="submit">Show</button>
            </form>
            """
    }
}
