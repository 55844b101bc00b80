import Foundation
import HTTPServer
import WalletCore

/// `GET /api/v1/events`: the event log in commit order, so a backend can pull what happened without
/// webhooks and resume from the last cursor it kept.
struct EventRoutes {
    let events: EventService

    func group(auth: APIAuth) -> RouteGroup {
        let events = self.events
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .get, "/events", operationID: "listEvents",
            summary: "Events after a cursor, oldest first: what happened to passes, templates, bulk jobs and keys (the EventType schema lists every type)", auth: auth.requiring(.eventsRead),
            parameters: [
                RouteParameter("after", in: .query), RouteParameter("type", in: .query, schema: "EventType"),
                RouteParameter("template", in: .query), RouteParameter("limit", in: .query, schema: "EventLimit"),
            ],
            responses: [.json(.ok, "A page of events", schema: EventPage.schemaName), .problem(.unprocessableContent, "An unknown cursor, type or limit")]
        ) { request, _ in
            let limitText = request.query("limit") ?? "100"
            guard let limit = Int(limitText) else { throw ServiceError.invalid("limit must be a number from 1 to 1000, not '\(limitText)'") }
            // `type` may repeat, and each may list several types separated by commas.
            let types = request.queryItems.filter { $0.name == "type" }.flatMap { $0.value.split(separator: ",").map(String.init) }
            return try .json(try await events.page(after: request.query("after"), types: types, template: request.query("template"), limit: limit))
        })
        return group
    }
}
