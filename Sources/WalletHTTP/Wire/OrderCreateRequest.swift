import WalletCore
import HTTPServer
import PassModel

/// The body of `POST /api/v1/orders`: the order template, optionally the order identifier (a UUID
/// when absent), and the order's own keys as a JSON Merge Patch over the template's `order.json`
/// (line items, fulfilments, payment, customer, status…).
public struct OrderCreateRequest: WireRequestBody {
    public static let schemaName = "OrderCreate"

    public var template: String
    public var orderIdentifier: String?
    public var order: JSONObject

    public init(template: String, orderIdentifier: String? = nil, order: JSONObject) {
        self.template = template
        self.orderIdentifier = orderIdentifier
        self.order = order
    }

    public var members: JSONObject {
        var body: JSONObject = ["template": .string(template), "order": .object(order)]
        body["orderIdentifier"] = orderIdentifier.map(JSONValue.string)
        return body
    }

    public init(validating body: JSONObject) throws(HTTPError) {
        try body.requireOnly(["template", "orderIdentifier", "order"])
        guard let template = try body.string("template"), !template.isEmpty else {
            throw HTTPError(.unprocessableContent, "template is required: the name of an order template (a folder under <templates>/orders/)")
        }
        let identifier = try body.string("orderIdentifier")
        if let identifier, identifier.isEmpty || identifier.utf8.count > 128 || identifier.contains("/") {
            throw HTTPError(.unprocessableContent, "orderIdentifier must be 1 to 128 bytes without '/'")
        }
        self.init(template: template, orderIdentifier: identifier, order: try body.object("order") ?? JSONObject())
    }
}
