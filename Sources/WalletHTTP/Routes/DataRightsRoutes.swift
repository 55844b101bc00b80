import Foundation
import HTTPServer
import PassModel
import WalletCore

/// Holders' data rights (GDPR Art. 15, 17 and 20) under `/api/v1`: erase a pass's holder data, or
/// every pass holding a value; export everything stored about a pass or a holder as JSON; the same
/// for orders and their customers.
struct DataRightsRoutes {
    let service: PassService
    let orders: OrderService

    func group(auth: APIAuth) -> RouteGroup {
        let service = self.service, orders = self.orders
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .delete, "/passes/:passType/:serial", operationID: "erasePass",
            summary: "Erase the holder's data: the pass is voided and pushed, its record blanked, its history, held change, upload lines and device logs removed; the serial stays as a tombstone",
            auth: auth.requiring(.passesErase),
            responses: [.json(.ok, "Erased (or erased before)", schema: ErasureResult.schemaName), .problem(.notFound, "No such pass")]
        ) { _, context in
            guard let erasure = try await service.erase(try context.parameters.passKey(), origin: try context.identity(as: APICaller.self).origin) else {
                return .problem(status: .notFound, detail: "no such pass")
            }
            return try .json(ErasureResult([erasure]))
        })
        group.add(Self.lookup(
            "/erasures", operationID: "eraseHolder", scope: .passesErase, auth: auth, schema: ErasureResult.schemaName,
            summary: "Erase every pass whose record holds a value (a member id, an e-mail address), as DELETE does for one",
            answer: "The passes erased (none when nothing matched)"
        ) { body, context in
            try .json(ErasureResult(try await service.erase(
                matching: body.field, value: body.value, template: body.template, origin: try context.identity(as: APICaller.self).origin)))
        })
        group.add(Route(
            .get, "/passes/:passType/:serial/export", operationID: "exportPass",
            summary: "Everything stored about a pass as JSON: record, history, held change, devices, events and audit rows",
            auth: auth.requiring(.passesRead),
            responses: [.json(.ok, "The export", schema: HolderExport.schemaName), .problem(.notFound, "No such pass")]
        ) { _, context in
            guard let export = try await service.export(try context.parameters.passKey()) else { return .problem(status: .notFound, detail: "no such pass") }
            return try .json(export)
        })
        group.add(Self.lookup(
            "/exports", operationID: "exportHolder", scope: .passesRead, auth: auth, schema: HolderExport.schemaName,
            summary: "Everything stored about every pass whose record holds a value, as JSON", answer: "The export (no passes when nothing matched)"
        ) { body, _ in
            try .json(try await service.export(matching: body.field, value: body.value, template: body.template))
        })
        group.add(Route(
            .delete, "/orders/:orderType/:orderId", operationID: "eraseOrder",
            summary: "Erase the customer's data from an order: only what Wallet requires stays (identifiers, type, status, merchant, dates); it is pushed, its device logs removed; the order stays as a tombstone",
            auth: auth.requiring(.ordersErase),
            responses: [
                .json(.ok, "Erased (or erased before)", schema: OrderErasureResult.schemaName), .problem(.notFound, "No such order"),
                .problem(.serviceUnavailable, "The order kept changing under the erasure, or cannot be signed here"),
            ]
        ) { _, context in
            let key = try context.parameters.orderKey()
            guard let erasure = try await orders.erase(key, origin: try context.identity(as: APICaller.self).origin) else {
                throw OrderFailure.notFound(key.description)
            }
            return try .json(OrderErasureResult([erasure]))
        })
        group.add(Self.lookup(
            "/orders/erasures", operationID: "eraseOrderCustomer", scope: .ordersErase, auth: auth, schema: OrderErasureResult.schemaName,
            summary: "Erase the customer's data from every order whose order.json holds a value (customer.emailAddress), as DELETE does for one",
            answer: "The orders erased (none when nothing matched)"
        ) { body, context in
            try .json(OrderErasureResult(try await orders.erase(
                matching: body.field, value: body.value, template: body.template, origin: try context.identity(as: APICaller.self).origin)))
        })
        group.add(Route(
            .get, "/orders/:orderType/:orderId/export", operationID: "exportOrder",
            summary: "Everything stored about an order as JSON: order.json (without its token), devices, events and audit rows",
            auth: auth.requiring(.ordersRead),
            responses: [.json(.ok, "The export", schema: OrderExport.schemaName), .problem(.notFound, "No such order")]
        ) { _, context in
            let key = try context.parameters.orderKey()
            guard let export = try await orders.export(key) else { throw OrderFailure.notFound(key.description) }
            return try .json(export)
        })
        group.add(Self.lookup(
            "/orders/exports", operationID: "exportOrderCustomer", scope: .ordersRead, auth: auth, schema: OrderExport.schemaName,
            summary: "Everything stored about every order whose order.json holds a value, as JSON", answer: "The export (no orders when nothing matched)"
        ) { body, _ in
            try .json(try await orders.export(matching: body.field, value: body.value, template: body.template))
        })
        return group
    }

    /// A `POST` that names holders by a value in their records (``HolderLookup``), the one shape of
    /// the by-value erasure and export.
    private static func lookup(
        _ path: String, operationID: String, scope: APIScope, auth: APIAuth, schema: String, summary: String, answer: String,
        _ handle: @escaping @Sendable (HolderLookup, RequestContext) async throws -> HTTPResponse
    ) -> Route {
        Route(
            .post, path, operationID: operationID, summary: summary, auth: auth.requiring(scope), maxBodySize: 16 << 10,
            requestBody: .json(HolderLookup.schemaName),
            responses: [.json(.ok, answer, schema: schema), .problem(.badRequest, "Malformed JSON"), .problem(.unprocessableContent, "No field or value")]
        ) { request, context in
            let lookup = try HolderLookup(validating: request.jsonObject())
            // A key limited to some templates looks only within one of them: it must name it.
            let caller = try context.identity(as: APICaller.self)
            if let allowed = caller.templates, !(lookup.template.map(caller.allows(template:)) ?? false) {
                throw HTTPError(.forbidden, "this key may only use the templates \(allowed.sorted().joined(separator: ", ")): name one of them as template")
            }
            return try await handle(lookup, context)
        }
    }
}
