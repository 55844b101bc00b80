import Foundation
import HTTPServer
import WalletCore

/// `GET /api/v1/analytics`: how a programme is doing, per day or week (issued, added to phones,
/// removed, active, pushes and their failures, holder page visits), from the store's daily counters.
struct AnalyticsRoutes {
    let analytics: AnalyticsService

    func group(auth: APIAuth) -> RouteGroup {
        let analytics = self.analytics
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .get, "/analytics", operationID: "getAnalytics",
            summary: "Programme analytics per day or week (UTC; weeks start on Monday): passes issued, installed, removed and updated, active passes and devices, pushes sent and failed by reason, holder page views and downloads, and the template versions published in the range",
            auth: auth.requiring(.analyticsRead),
            parameters: [
                RouteParameter("template", in: .query), RouteParameter("from", in: .query, schema: "Day"), RouteParameter("to", in: .query, schema: "Day"),
                RouteParameter("interval", in: .query, schema: "AnalyticsInterval"),
            ],
            responses: [
                .json(.ok, "The report", schema: AnalyticsReport.schemaName),
                .problem(.unprocessableContent, "An unknown template, an unreadable day or interval, from after to, or a range longer than 366 days or 106 weeks"),
            ]
        ) { request, _ in
            try HTTPResponse.json(try await analytics.report(AnalyticsService.Query(
                template: request.query("template"), from: request.query("from"), to: request.query("to"), interval: request.query("interval"))))
        })
        return group
    }
}
