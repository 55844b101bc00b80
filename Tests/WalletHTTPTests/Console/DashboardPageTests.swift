import Foundation
import HTTPServer
import Locking
import Testing
import WalletCore
@testable import WalletHTTP

/// The dashboard's answer to a query, with the report's source standing in for the analytics service:
/// the source is asked for exactly the filter the query gives, and a wrong filter or an unknown template
/// is shown back in the form (422) without drawing anything.
@Suite struct DashboardPageTests {
    static let today = CivilDay("2026-12-04")!

    static func respond(_ query: [String: String], report: @escaping ConsoleRoutes.DashboardReport) async throws -> (HTTPResponse, String) {
        let response = try await ConsoleRoutes.dashboardResponse(
            query: { query[$0] }, templates: ["coupon", "loyalty"], csrf: "0123abcd", role: .viewer, today: today, report: report)
        return (response, String(decoding: response.body, as: UTF8.self))
    }

    @Test func theSourceIsAskedForTheQuerysFilterAndThePageDrawsItsAnswer() async throws {
        let asked = Locked<[DashboardFilter]>([])
        let (response, html) = try await Self.respond(["template": "loyalty", "from": "2026-12-01", "to": "2026-12-05", "interval": "day"]) { filter in
            asked.withLock { $0.append(filter) }
            return DashboardChartTests.report()
        }
        #expect(asked.withLock { $0 } == [DashboardFilter(template: "loyalty", from: CivilDay("2026-12-01")!, to: CivilDay("2026-12-05")!, interval: .day)])
        #expect(response.status == .ok && response.headers["Content-Security-Policy"] == ConsolePage.contentSecurityPolicy)
        #expect(html.contains("<h1>Dashboard</h1>") && html.contains("<section class=\"chart\" id=\"chart-installs\""))
        #expect(html.contains("<option value=\"loyalty\" selected>loyalty</option>"))
        #expect(!html.contains("style="), "the console's CSP allows no inline style")
    }

    @Test func aWrongFilterIsShownBackWithoutAskingForAReport() async throws {
        let asked = Locked(0)
        let (response, html) = try await Self.respond(["from": "2026-12-<b>", "to": "2026-12-05"]) { _ in
            asked.withLock { $0 += 1 }
            return DashboardChartTests.report()
        }
        #expect(response.status == .unprocessableContent && asked.withLock { $0 } == 0)
        #expect(html.contains("<p class=\"error\" role=\"alert\">From is not a day"))
        #expect(html.contains("value=\"2026-12-&lt;b&gt;\"") && !html.contains("<b>"), "the typed value is shown back, escaped")
        #expect(!html.contains("<svg"))
    }

    @Test func anUnknownTemplateIsShownBack() async throws {
        let (response, html) = try await Self.respond(["template": "gone"]) { filter in
            throw ServiceError.unknownTemplate(filter.template ?? "", available: ["coupon", "loyalty"])
        }
        #expect(response.status == .unprocessableContent && html.contains("There is no template gone."))
    }
}
