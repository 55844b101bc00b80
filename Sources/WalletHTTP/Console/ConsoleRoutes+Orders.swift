import Foundation
import HTTPServer
import OrderModel
import PassModel
import WalletCore

/// Orders: the most recent ones, and one order with its items, fulfilments and an editor whose
/// changes go through the same ``OrderService`` write path as `PATCH /api/v1/orders/…` (validated,
/// signed, pushed to the order's devices).
extension ConsoleRoutes {
    var orderRoutes: [Route] {
        [
            signed(.get, "/orders", "Orders", needs: .scope(.ordersRead)) { request, _, signed in try await orderList(request, signed) },
            signed(.get, "/orders/:orderType/:orderId", "An order", needs: .scope(.ordersRead)) { request, context, signed in
                try await orderDetails(try context.parameters.orderKey(), signed, notice: request.query("notice"))
            },
            signed(.post, "/orders/:orderType/:orderId", "Save an order", needs: .scope(.ordersWrite)) { _, context, signed in
                try await saveOrder(try context.parameters.orderKey(), signed)
            },
            signed(.get, "/orders/:orderType/:orderId/order", "An order's signed package", needs: .scope(.ordersRead)) { _, context, _ in
                let key = try context.parameters.orderKey()
                guard let order = try await orders.order(key) else { return .problem(status: .notFound, detail: "no such order") }
                var response = HTTPResponse.bytes(try await orders.package(order), contentType: "application/vnd.apple.finance.order")
                response.headers["Content-Disposition"] = "attachment; filename=\"\(SafeFileName.from(key.orderIdentifier)).order\""
                ConsolePage.secure(&response)
                return response
            },
            signed(.get, "/orders/:orderType/:orderId/preview.png", "An order's picture", needs: .scope(.ordersRead), start: .inPool) { request, context, _ in
                let key = try context.parameters.orderKey()
                guard let order = try await orders.order(key) else { return .problem(status: .notFound, detail: "no such order") }
                var response = HTTPResponse.bytes(
                    try await orders.picture(order, scale: 2, dark: request.query("appearance") == "dark").png, contentType: "image/png")
                ConsolePage.secure(&response)
                return response
            },
        ]
    }

    private func orderList(_ request: HTTPRequest, _ signed: Signed) async throws -> HTTPResponse {
        let template = request.query("template").flatMap { $0.isEmpty ? nil : $0 }
        let recent = try await orders.recent(template: template, limit: Self.pageSize)
        let options = ([HTML("<option value=\"\">All order templates</option>")] + (try await orders.templateNames()).map { name in
            name == template ? HTML("<option value=\"\(name)\" selected>\(name)</option>") : HTML("<option value=\"\(name)\">\(name)</option>")
        })
        let rows = try recent.map { order -> HTML in
            let document = try orders.document(order)
            return """
                <tr><th scope="row"><a href="/console/orders/\(Self.orderPath(order.key))">\(order.key.orderIdentifier)</a></th>
                <td>\(Self.string(document["orderNumber"]))</td><td>\(order.template)</td><td>\(Self.string(document["status"]))</td>
                <td>\(ConsolePage.time(order.lastModified))</td></tr>
                """
        }
        let table: HTML = rows.isEmpty
            ? "<p class=\"empty\">No orders yet. Create one with <code>POST /api/v1/orders</code> from an order template (a folder under <code>Templates/orders/</code>).</p>"
            : """
                <div class="scroll"><table id="orders"><caption>The \(Self.pageSize) most recently changed orders</caption>
                <thead><tr><th scope="col">Order</th><th scope="col">Number</th><th scope="col">Template</th><th scope="col">Status</th><th scope="col">Updated</th></tr></thead>
                <tbody>\(rows.joined)</tbody></table></div>
                """
        return ConsolePage.page("Orders", section: "/console/orders", csrf: signed.csrf, role: signed.role, """
            <form id="filter" method="get" action="/console/orders">
            <label for="template">Order template</label>
            <select name="template" id="template">\(options.joined)</select>
            <button type="submit">Show</button>
            </form>
            \(table)
            """)
    }

    func orderDetails(_ key: OrderService.Key, _ signed: Signed, notice: String? = nil, error: String? = nil, status: HTTPStatus = .ok,
                      submitted: ConsoleForm? = nil) async throws -> HTTPResponse {
        guard let order = try await orders.order(key) else {
            return ConsolePage.page("No such order", section: "/console/orders", csrf: signed.csrf, role: signed.role,
                                    error: "There is no order \(key.orderIdentifier) of \(key.orderTypeIdentifier).",
                                    status: .notFound, "<p><a class=\"button quiet\" href=\"/console/orders\">Orders</a></p>")
        }
        let document = try orders.document(order)
        let fulfillments = Self.objects(document["fulfillments"])
        let itemRows = Self.objects(document["lineItems"]).map { item -> HTML in
            "<tr><th scope=\"row\">\(Self.string(item["title"]))</th><td>\(Self.string(item["subtitle"]))</td><td>\(Self.string(item["quantity"]))</td></tr>"
        }
        let devices = try await orders.registrationCount(key)
        let editable = PassService.text(.object(try orders.editableDocument(order)))
        let base = "/console/orders/\(Self.orderPath(key))"
        let editor: HTML
        if order.erasedAt != nil {
            editor = "<p class=\"hint\">An erased order takes no further change.</p>"
        } else if signed.can(.ordersWrite) {
            let statusField = Self.select("status", label: "Order status", options: OrderStatus.allCases.map(\.rawValue),
                                          chosen: submitted?["status"] ?? Self.string(document["status"]))
            let fulfillmentFields = fulfillments.enumerated().map { index, fulfillment -> HTML in
                let pickup = Self.string(fulfillment["fulfillmentType"]) == FulfillmentType.pickup.rawValue
                let cases = pickup ? PickupStatus.allCases.map(\.rawValue) : ShippingStatus.allCases.map(\.rawValue)
                let name = Self.string(fulfillment["fulfillmentIdentifier"])
                return Self.select("fulfillment.\(index)", label: "\(pickup ? "Pick-up" : "Shipment") \(name.isEmpty ? String(index + 1) : name) status",
                                   options: cases, chosen: submitted?["fulfillment.\(index)"] ?? Self.string(fulfillment["status"]))
            }
            let raw = submitted?["order"] ?? editable
            editor = """
                <form id="edit" method="post" action="\(base)">
                \(ConsolePage.csrfField(signed.csrf))
                <input type="hidden" name="tag" value="\(String(order.updateTag))">
                <fieldset><legend>Progress</legend>\(statusField)\(fulfillmentFields.joined)</fieldset>
                <label for="order">The whole order as JSON</label>
                <textarea name="order" id="order" rows="12" spellcheck="false" aria-describedby="order-hint">\(raw)</textarea>
                <p class="hint" id="order-hint">Apple's order.json without the keys the server sets (identifiers, web service, token, updatedAt). The fields above win over this for the statuses.</p>
                <button type="submit">Save and notify \(devices == 1 ? "1 device" : "\(devices) devices")</button>
                </form>
                """
        } else {
            editor = "<pre id=\"data\" class=\"data\">\(editable)</pre><p class=\"hint\">Your role can read this order but not change it.</p>"
        }
        let fulfillmentRows = fulfillments.map { fulfillment -> HTML in
            """
                <tr><th scope="row">\(Self.string(fulfillment["fulfillmentIdentifier"]))</th><td>\(Self.string(fulfillment["fulfillmentType"]))</td>
                <td>\(Self.string(fulfillment["status"]))</td><td>\(Self.string(fulfillment["carrier"]))</td><td>\(Self.string(fulfillment["trackingNumber"]))</td></tr>
                """
        }
        return ConsolePage.page("Order \(key.orderIdentifier)", section: "/console/orders", csrf: signed.csrf, role: signed.role,
                                notice: notice, error: error, status: status, """
            <p>\(key.orderTypeIdentifier) · template \(order.template) v\(order.templateVersion) · order number \(Self.string(document["orderNumber"])) · status <strong id="status-now">\(Self.string(document["status"]))</strong> · updated \(ConsolePage.time(order.lastModified)) · \(ConsolePage.number(devices)) registered \(devices == 1 ? "device" : "devices")</p>
            <p><a class="button quiet" href="\(base)/order" download>Signed .order</a></p>
            <div class="pictures">
            <picture><source srcset="\(base)/preview.png?appearance=dark&amp;tag=\(String(order.updateTag))" media="(prefers-color-scheme: dark)">
            <img class="preview order" src="\(base)/preview.png?tag=\(String(order.updateTag))" alt="Order \(key.orderIdentifier) as the customer sees it in Wallet" width="390"></picture>
            </div>
            <h2>Items</h2>
            \(itemRows.isEmpty ? "<p class=\"empty\">No line items.</p>" : """
                <div class="scroll"><table id="items"><caption>What was bought</caption>
                <thead><tr><th scope="col">Item</th><th scope="col">Detail</th><th scope="col">Quantity</th></tr></thead><tbody>\(itemRows.joined)</tbody></table></div>
                """)
            <h2>Fulfilments</h2>
            \(fulfillmentRows.isEmpty ? "<p class=\"empty\">No fulfilments yet.</p>" : """
                <div class="scroll"><table id="fulfillments"><caption>Shipping and pick-up</caption>
                <thead><tr><th scope="col">Fulfilment</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Carrier</th><th scope="col">Tracking</th></tr></thead><tbody>\(fulfillmentRows.joined)</tbody></table></div>
                """)
            <h2>Change</h2>
            \(editor)
            \(orderDataRights(key, erasedAt: order.erasedAt, signed))
            """)
    }

    private func saveOrder(_ key: OrderService.Key, _ signed: Signed) async throws -> HTTPResponse {
        guard let form = signed.form else { return try await orderDetails(key, signed) }
        func again(_ message: String, _ status: HTTPStatus) async throws -> HTTPResponse {
            try await orderDetails(key, signed, error: message, status: status, submitted: form)
        }
        guard let order = try await orders.order(key) else { return try await orderDetails(key, signed) }
        guard let tag = form["tag"].flatMap({ Int64($0) }) else { return try await again("The form is missing its version; reload the page.", .badRequest) }
        let stored = try orders.editableDocument(order)
        var edited = stored
        if let text = form["order"], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard case .object(let object)? = try? JSONValue.parse(Data(text.utf8)) else {
                return try await again("The order is not a JSON object; nothing was saved.", .unprocessableContent)
            }
            edited = object
        }
        if let status = form["status"], !status.isEmpty { edited["status"] = .string(status) }
        if case .array(var fulfillments)? = edited["fulfillments"] {
            for index in fulfillments.indices {
                guard let status = form["fulfillment.\(index)"], !status.isEmpty, case .object(var fulfillment) = fulfillments[index] else { continue }
                fulfillment["status"] = .string(status)
                fulfillments[index] = .object(fulfillment)
            }
            edited["fulfillments"] = .array(fulfillments)
        }
        let patch = OrderService.patch(from: stored, to: edited)
        do {
            let (_, queued) = try await orders.update(key, patch: patch, expectedTag: tag, origin: signed.origin)
            let notice = patch.isEmpty ? "Nothing changed." : "Saved; \(queued == 1 ? "1 device is" : "\(queued) devices are") being notified."
            return ConsolePage.redirect("/console/orders/\(Self.orderPath(key))?notice=\(QueryComponent.escaped(notice))")
        } catch let failure as OrderFailure {
            switch failure {
            case .changedSince: return try await again("\(failure)", .conflict)
            case .invalid, .serverOwned: return try await again("Not saved: \(failure)", .unprocessableContent)
            default: throw failure
            }
        }
    }

    /// The path segments of an order, escaped.
    static func orderPath(_ key: OrderService.Key) -> String {
        path(key.orderTypeIdentifier, key.orderIdentifier)
    }

    private static func select(_ name: String, label: String, options: [String], chosen: String) -> HTML {
        let items = options.map { option in
            option == chosen ? HTML("<option value=\"\(option)\" selected>\(option)</option>") : HTML("<option value=\"\(option)\">\(option)</option>")
        }
        return "<label for=\"\(name)\">\(label)</label><select name=\"\(name)\" id=\"\(name)\">\(items.joined)</select>"
    }

    /// The objects of an array member (line items, fulfilments); none when it is absent or not one.
    private static func objects(_ value: JSONValue?) -> [JSONObject] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item -> JSONObject? in
            if case .object(let object) = item { return object }
            return nil
        }
    }

    /// A member's value as text for the page; empty when absent.
    private static func string(_ value: JSONValue?) -> String {
        value.map(text) ?? ""
    }
}
