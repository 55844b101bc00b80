import Foundation
import HTTPServer
import PassModel
import WalletCore

/// The admin API for Wallet orders, under `/api/v1/orders`: create from an order template, read,
/// change by JSON Merge Patch (each change pushed to the order's devices), list, download.
struct OrderRoutes {
    let orders: OrderService
    let idempotent: Idempotent

    func group(auth: APIAuth) -> RouteGroup {
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .post, "/orders", operationID: "createOrder", summary: "Create an order from an order template",
            auth: auth.requiring(.ordersWrite), maxBodySize: 256 << 10,
            parameters: [Idempotent.parameter], requestBody: .json(OrderCreateRequest.schemaName),
            responses: [
                .json(.created, "Created", schema: OrderDetails.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.conflict, "An order with this identifier exists, or a request with the same Idempotency-Key is still being answered"),
                .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "Unknown template, a key the server sets, or invalid values, each with its JSON path", schema: "InvalidOrderProblem"),
                .problem(.serviceUnavailable, "No identity to sign orders of the template's type"),
            ]) { request, context in try await idempotent.run(request, context) { try await create(request, context) } })
        group.add(Route(
            .get, "/orders", operationID: "listOrders", summary: "The most recently changed orders, newest first", auth: auth.requiring(.ordersRead),
            parameters: [RouteParameter("template", in: .query), RouteParameter("limit", in: .query, schema: "LogLimit")],
            responses: [.json(.ok, "OK", schema: OrderList.schemaName), .problem(.unprocessableContent, "limit is not a whole number from 1 to 1000")]
        ) { request, _ in try await list(request) })
        group.add(Route(
            .get, "/orders/:orderType/:orderId", operationID: "getOrder", summary: "Read an order", auth: auth.requiring(.ordersRead),
            responses: [.json(.ok, "OK", schema: OrderDetails.schemaName), .problem(.notFound, "No such order")]
        ) { _, context in
            let key = try context.parameters.orderKey()
            guard let order = try await orders.order(key) else { throw OrderFailure.notFound(key.description) }
            return try .json(try await details(order, pushesQueued: 0))
        })
        group.add(Route(
            .patch, "/orders/:orderType/:orderId", operationID: "updateOrder",
            summary: "Change an order (status, fulfilments, line items…) by JSON Merge Patch; its devices get a push",
            auth: auth.requiring(.ordersWrite), maxBodySize: 256 << 10,
            parameters: [Idempotent.parameter], requestBody: RouteBody("application/json", schema: "OrderPatch", alternatives: ["application/merge-patch+json"]),
            responses: [
                .json(.ok, "OK", schema: OrderDetails.schemaName), .problem(.badRequest, "Malformed JSON"),
                .problem(.conflict, "A request with the same Idempotency-Key is still being answered"),
                .problem(.notFound, "No such order"), .problem(.unsupportedMediaType, "Not JSON"),
                .problem(.unprocessableContent, "A key the server sets, or invalid values", schema: "InvalidOrderProblem"),
            ]) { request, context in try await idempotent.run(request, context) { try await update(request, context) } })
        group.add(Route(
            .get, "/orders/:orderType/:orderId/order", operationID: "getOrderArchive", summary: "The signed .order", auth: auth.requiring(.ordersRead),
            responses: [
                RouteResponse(.ok, "The signed order", body: RouteBody("application/vnd.apple.finance.order", schema: "OrderArchive")),
                .problem(.notFound, "No such order"),
            ]
        ) { _, context in
            let key = try context.parameters.orderKey()
            guard let order = try await orders.order(key) else { throw OrderFailure.notFound(key.description) }
            var response = HTTPResponse.bytes(try await orders.package(order), contentType: "application/vnd.apple.finance.order")
            response.headers["Content-Disposition"] = "attachment; filename=\"\(SafeFileName.from(key.orderIdentifier)).order\""
            return response
        })
        group.add(Route(
            .get, "/orders/:orderType/:orderId/preview", operationID: "previewOrder",
            summary: "The order drawn as Wallet's order detail screen shows it (PNG)", auth: auth.requiring(.ordersRead), start: .inPool,
            parameters: [RouteParameter("scale", in: .query, schema: "PreviewScale"), RouteParameter("appearance", in: .query, schema: "Appearance")],
            responses: [
                RouteResponse(.ok, "The picture", body: RouteBody("image/png", schema: "PreviewPNG")), .empty(.notModified, "Not modified"),
                .problem(.badRequest, "A bad scale or appearance"), .problem(.notFound, "No such order"),
            ]
        ) { request, context in try await picture(request, context) })
        return group
    }

    /// The picture, with an `ETag` of the order's version and the options, so a browser or the
    /// console asks again cheaply (304) until the order changes.
    private func picture(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.orderKey()
        let scaleText = request.query("scale") ?? "2"
        guard let scale = Int(scaleText), (1...3).contains(scale) else {
            throw HTTPError.badRequest("scale: 1, 2 or 3 (Wallet's @1x, @2x and @3x), not '\(scaleText.prefix(40))'")
        }
        let appearance = request.query("appearance") ?? "light"
        guard appearance == "light" || appearance == "dark" else {
            throw HTTPError.badRequest("appearance: light or dark, not '\(appearance.prefix(40))'")
        }
        guard let order = try await orders.order(key) else { throw OrderFailure.notFound(key.description) }
        let tag = "\"\(order.updateTag)-\(scale)x-\(appearance)\""
        if request.headers["if-none-match"] == tag { return .empty(status: .notModified, headers: ["ETag": tag]) }
        var response = HTTPResponse.bytes(try await orders.picture(order, scale: scale, dark: appearance == "dark").png, contentType: "image/png")
        response.headers["ETag"] = tag
        response.headers["Cache-Control"] = "private, no-cache"
        return response
    }

    private func create(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let body = try OrderCreateRequest(validating: request.jsonObject())
        let caller = try context.identity(as: APICaller.self)
        guard caller.allows(template: body.template) else { throw HTTPError(.forbidden, "this key may not use the template \(body.template)") }
        let order = try await orders.create(template: body.template, orderIdentifier: body.orderIdentifier, patch: body.order, origin: caller.origin)
        var response = try HTTPResponse.json(try await details(order, pushesQueued: 0), status: .created)
        response.headers["Location"] = "/api/v1/orders/\(PathSegment.escaped(order.key.orderTypeIdentifier))/\(PathSegment.escaped(order.key.orderIdentifier))"
        return response
    }

    private func update(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let key = try context.parameters.orderKey()
        let patch = try request.jsonObject()
        // The route's auth refused a key limited to other templates than this order's.
        let (order, queued) = try await orders.update(key, patch: patch, origin: try context.identity(as: APICaller.self).origin)
        return try .json(try await details(order, pushesQueued: queued))
    }

    private func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        var limit = 100
        if let text = request.query("limit") {
            guard let value = Int(text), (1...1000).contains(value) else { throw ServiceError.invalid("limit must be a whole number from 1 to 1000, not '\(text)'") }
            limit = value
        }
        let entries = try await orders.recent(template: request.query("template"), limit: limit).map { order in
            let document = try orders.document(order)
            return OrderList.Entry(
                orderTypeIdentifier: order.key.orderTypeIdentifier, orderIdentifier: order.key.orderIdentifier, template: order.template,
                status: Self.text(document["status"]), updatedAt: Self.text(document["updatedAt"]))
        }
        return try .json(OrderList(orders: entries))
    }

    private func details(_ order: OrderService.Stored, pushesQueued: Int) async throws -> OrderDetails {
        let document = try orders.document(order)
        return OrderDetails(
            orderTypeIdentifier: order.key.orderTypeIdentifier, orderIdentifier: order.key.orderIdentifier, template: order.template, templateVersion: order.templateVersion,
            webServiceURL: Self.text(document["webServiceURL"]), authenticationToken: order.authenticationToken,
            updatedAt: Self.text(document["updatedAt"]), updateTag: String(order.updateTag),
            registeredDevices: try await orders.registrationCount(order.key), pushesQueued: pushesQueued, order: document)
    }

    private static func text(_ value: JSONValue?) -> String {
        if case .string(let text)? = value { return text }
        return ""
    }
}
