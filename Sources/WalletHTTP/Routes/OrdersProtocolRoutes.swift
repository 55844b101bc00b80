import Foundation
import HTTPServer
import PassModel
import WalletCore

/// Apple's Orders web service (Apple's "Wallet Orders" web service endpoints), under `/orders/v1/…`:
/// what Wallet calls for an order whose `webServiceURL` is `<public URL>/orders`. The routes mirror
/// the passes' ones: a wrong token and an unknown order answer the same `401`.
struct OrdersProtocolRoutes {
    let orders: OrderService
    let passes: PassService

    var group: RouteGroup {
        var group = RouteGroup("/orders/v1", auth: ServiceAuth.orderToken(orders))
        group.add(Route(
            .post, "/devices/:orderDevice/registrations/:orderType/:orderId", operationID: "registerOrderDevice",
            summary: "Register a device for an order's updates", maxBodySize: 4096,
            requestBody: RouteBody("application/json", schema: "PushToken", checksContentType: false),
            responses: [
                .empty(.ok, "Already registered (push token updated)"), .empty(.created, "Registered"),
                .problem(.badRequest, "Malformed body or path"),
            ]) { request, context in try await register(request, context) })
        group.add(Route(
            .get, "/devices/:orderDevice/registrations/:orderType", operationID: "updatedOrders",
            summary: "Identifiers of the device's orders changed since a previous answer", auth: RouteAuth.none,
            parameters: [RouteParameter("ordersModifiedSince", in: .query)],
            responses: [.json(.ok, "OK", schema: "OrderIdentifiers"), .empty(.noContent, "Nothing changed")]
        ) { request, context in try await updatedOrders(request, context) })
        group.add(Route(
            .get, "/orders/:orderType/:orderId", operationID: "latestOrder", summary: "The latest version of an order",
            parameters: [RouteParameter("If-Modified-Since", in: .header)],
            responses: [
                RouteResponse(.ok, "The signed order", body: RouteBody("application/vnd.apple.finance.order", schema: "OrderArchive")),
                .empty(.notModified, "Not modified"),
            ]) { request, context in try await latestOrder(request, context) })
        group.add(Route(
            .delete, "/devices/:orderDevice/registrations/:orderType/:orderId", operationID: "unregisterOrderDevice",
            summary: "Unregister a device from an order", responses: [.empty(.ok, "Unregistered")]
        ) { _, context in
            let order = try context.identity(as: OrderService.Stored.self)
            try await orders.unregister(device: try context.parameters.require("orderDevice"), from: order.key)
            return .empty(status: .ok)
        })
        group.add(Route(
            .post, "/log", operationID: "orderDeviceLog", summary: "Log lines from devices", auth: RouteAuth.none,
            maxBodySize: 64 << 10, requestBody: RouteBody("application/json", schema: "OrderLogEntries", checksContentType: false),
            responses: [.empty(.ok, "Stored"), .problem(.badRequest, "Malformed body")]
        ) { request, _ in try await log(request) })
        return group
    }

    private func register(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let order = try context.identity(as: OrderService.Stored.self)
        let body = try request.jsonObject()
        guard let pushToken = try body.string("pushToken"), !pushToken.isEmpty, pushToken.count <= 256,
              pushToken.utf8.allSatisfy(WalletProtocolRoutes.isHexDigit) else {
            throw HTTPError.badRequest("pushToken must be the device's hex push token")
        }
        let created = try await orders.register(device: try context.parameters.require("orderDevice"), pushToken: pushToken, for: order.key)
        return .empty(status: created ? .created : .ok)
    }

    private func updatedOrders(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        // `lastModified` is opaque to Wallet: it sends back what an earlier answer gave (a tag here).
        let since = request.query("ordersModifiedSince").flatMap { Int64($0) }
        guard let changed = try await orders.changedOrders(
            device: try context.parameters.require("orderDevice"), orderTypeIdentifier: try context.parameters.require("orderType"), since: since
        ) else { return .empty(status: .noContent) }
        let body: JSONValue = .object([
            "orderIdentifiers": .array(changed.identifiers.map(JSONValue.string)),
            "lastModified": .string(String(changed.lastModified)),
        ])
        return .json(body.serialized(sortedKeys: true))
    }

    private func latestOrder(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let order = try context.identity(as: OrderService.Stored.self)
        let lastModified = HTTPDate.format(order.lastModified)
        if let since = Self.ifModifiedSince(request), order.lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970 {
            return .empty(status: .notModified, headers: ["Last-Modified": lastModified])
        }
        var response = HTTPResponse.bytes(try await orders.package(order), contentType: "application/vnd.apple.finance.order")
        response.headers["Last-Modified"] = lastModified
        return response
    }

    /// `If-Modified-Since` as an HTTP date, or as epoch seconds (what some Orders clients send).
    static func ifModifiedSince(_ request: HTTPRequest) -> Date? {
        guard let header = request.headers["if-modified-since"] else { return nil }
        if let date = HTTPDate.parse(header) { return date }
        return Double(header.trimmingCharacters(in: .whitespaces)).map { Date(timeIntervalSince1970: $0) }
    }

    /// Wallet posts `{"logs": [...]}` for passes; clients of orders also post a bare array: both work.
    private func log(_ request: HTTPRequest) async throws -> HTTPResponse {
        let entries: [JSONValue]
        switch try? JSONValue.parse(request.body) {
        case .array(let array)?: entries = array
        case .object(let object)?:
            guard case .array(let array)? = object["logs"] else { throw HTTPError.badRequest("logs must be an array of strings") }
            entries = array
        default: throw HTTPError.badRequest("send {\"logs\": [\"…\"]} or an array of strings")
        }
        let lines = try entries.prefix(100).map { entry throws(HTTPError) -> String in
            guard case .string(let line) = entry else { throw .badRequest("logs must be an array of strings") }
            return "order: " + String(line.prefix(4096))
        }
        try await passes.appendDeviceLogs(lines)
        return .empty(status: .ok)
    }
}
