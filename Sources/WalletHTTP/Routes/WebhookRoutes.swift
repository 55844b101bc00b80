import Foundation
import HTTPServer
import WalletCore

/// `/api/v1/webhooks`: endpoints that receive the event log as signed deliveries (Standard Webhooks).
struct WebhookRoutes {
    let webhooks: WebhookService

    func group(auth: APIAuth) -> RouteGroup {
        let webhooks = self.webhooks
        var group = RouteGroup("/api/v1")
        let notFound = HTTPResponse.problem(status: .notFound, detail: "no such webhook endpoint")
        group.add(Route(
            .post, "/webhooks", operationID: "createWebhook",
            summary: "Subscribe an endpoint to event types (and templates); answers its signing secret, shown this once", auth: auth.requiring(.webhooksManage),
            maxBodySize: 16 << 10, requestBody: .json(WebhookRequest.schemaName),
            responses: [
                .json(.created, "Created", schema: WebhookCreated.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.unprocessableContent, "A URL, type or template that cannot be used"),
            ]
        ) { request, context in
            let body = try WebhookRequest(validating: request.jsonObject())
            let created = try await webhooks.create(WebhookService.Subscription(
                url: body.url, description: body.description, types: body.types, templates: body.templates), origin: try context.identity(as: APICaller.self).origin)
            return try .json(created, status: .created)
        })
        group.add(Route(
            .get, "/webhooks", operationID: "listWebhooks", summary: "Every webhook endpoint, enabled or not (and why not)", auth: auth.requiring(.webhooksManage),
            responses: [.json(.ok, "Endpoints", schema: WebhookList.schemaName)]
        ) { _, _ in try .json(try await webhooks.list()) })
        group.add(Route(
            .get, "/webhooks/:webhook", operationID: "getWebhook", summary: "One webhook endpoint", auth: auth.requiring(.webhooksManage),
            responses: [.json(.ok, "The endpoint", schema: WebhookEndpointDetails.schemaName), .problem(.notFound, "No such endpoint")]
        ) { _, context in
            guard let endpoint = try await webhooks.endpoint(try context.parameters.require("webhook")) else { return notFound }
            return try .json(endpoint)
        })
        group.add(Route(
            .patch, "/webhooks/:webhook", operationID: "updateWebhook",
            summary: "Change an endpoint's URL, subscription or description, or enable it again (deliveries resume in order)", auth: auth.requiring(.webhooksManage),
            maxBodySize: 16 << 10, requestBody: .json(WebhookChange.schemaName),
            responses: [
                .json(.ok, "The endpoint", schema: WebhookEndpointDetails.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.notFound, "No such endpoint"), .problem(.unprocessableContent, "A URL, type or template that cannot be used"),
            ]
        ) { request, context in
            let body = try WebhookChange(validating: request.jsonObject())
            guard let endpoint = try await webhooks.update(try context.parameters.require("webhook"), body.change, origin: try context.identity(as: APICaller.self).origin) else { return notFound }
            return try .json(endpoint)
        })
        group.add(Route(
            .delete, "/webhooks/:webhook", operationID: "deleteWebhook", summary: "Remove an endpoint and its deliveries", auth: auth.requiring(.webhooksManage),
            responses: [.empty(.noContent, "Removed"), .problem(.notFound, "No such endpoint")]
        ) { _, context in
            try await webhooks.delete(try context.parameters.require("webhook"), origin: try context.identity(as: APICaller.self).origin) ? .empty(status: .noContent) : notFound
        })
        group.add(Route(
            .post, "/webhooks/:webhook/rotate-secret", operationID: "rotateWebhookSecret",
            summary: "A new signing secret, shown this once; the old one signs beside it for overlapSeconds (default a day)", auth: auth.requiring(.webhooksManage),
            maxBodySize: 4096, requestBody: .json(WebhookRotation.schemaName),
            responses: [
                .json(.ok, "The new secret", schema: WebhookSecret.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.notFound, "No such endpoint"), .problem(.unprocessableContent, "An overlap out of range"),
            ]
        ) { request, context in
            let body = request.body.isEmpty ? WebhookRotation(overlapSeconds: 86_400) : try WebhookRotation(validating: request.jsonObject())
            guard let secret = try await webhooks.rotateSecret(try context.parameters.require("webhook"), overlap: .seconds(body.overlapSeconds), origin: try context.identity(as: APICaller.self).origin) else {
                return notFound
            }
            return try .json(secret)
        })
        group.add(Route(
            .post, "/webhooks/:webhook/replay", operationID: "replayWebhook",
            summary: "Deliver again every event since a time, or one event, after what is pending", auth: auth.requiring(.webhooksManage),
            maxBodySize: 4096, requestBody: .json(WebhookReplay.schemaName),
            responses: [
                .json(.accepted, "Queued", schema: WebhookReplayResult.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.notFound, "No such endpoint"), .problem(.unprocessableContent, "Neither a time nor an event id"),
            ]
        ) { request, context in
            let body = try WebhookReplay(validating: request.jsonObject())
            guard let result = try await webhooks.replay(try context.parameters.require("webhook"), since: body.since, event: body.event, origin: try context.identity(as: APICaller.self).origin) else {
                return notFound
            }
            return try .json(result, status: .accepted)
        })
        group.add(Route(
            .get, "/webhooks/:webhook/deliveries", operationID: "listWebhookDeliveries",
            summary: "The endpoint's newest deliveries: state, attempts, last status, latency and the start of the answer", auth: auth.requiring(.webhooksManage),
            parameters: [RouteParameter("limit", in: .query, schema: "EventLimit")],
            responses: [.json(.ok, "Deliveries", schema: WebhookDeliveryList.schemaName), .problem(.notFound, "No such endpoint")]
        ) { request, context in
            let limit = request.query("limit").flatMap(Int.init) ?? 50
            guard let list = try await webhooks.deliveries(try context.parameters.require("webhook"), limit: limit) else { return notFound }
            return try .json(list)
        })
        return group
    }
}
