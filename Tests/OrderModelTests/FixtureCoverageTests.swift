import Testing
import PassModel
import OrderModel

/// The complete fixture must use every key the model knows, at every place each object appears, so the
/// round-trip test exercises all of them. (The other direction, every key of the fixture known to the
/// model, is the round-trip test's "no unknown-key warnings".)
@Suite struct FixtureCoverageTests {
    struct Place: Sendable, CustomTestStringConvertible {
        let type: String
        let keys: [String]
        let paths: [String]
        var fulfillmentType: String?
        var testDescription: String { type }
    }

    static func keys<Model: JSONModel>(_ model: Model.Type) -> [String] { model.schema.properties.map(\.key) }

    @Test(arguments: [
        Place(type: "Order", keys: keys(Order.self), paths: [""]),
        Place(type: "Merchant", keys: keys(Merchant.self), paths: ["merchant"]),
        Place(type: "Address", keys: keys(Address.self), paths: ["merchant.address", "fulfillments[].recipient.address", "fulfillments[].address"]),
        Place(type: "LineItem", keys: keys(LineItem.self), paths: ["lineItems[]"]),
        Place(type: "CurrencyAmount", keys: keys(CurrencyAmount.self), paths: ["lineItems[].price", "payment.total"]),
        Place(type: "ShippingFulfillment", keys: keys(ShippingFulfillment.self), paths: ["fulfillments[]"], fulfillmentType: "shipping"),
        Place(type: "Recipient", keys: keys(ShippingFulfillment.Recipient.self), paths: ["fulfillments[].recipient"]),
        Place(type: "PickupFulfillment", keys: keys(PickupFulfillment.self), paths: ["fulfillments[]"], fulfillmentType: "pickup"),
        Place(type: "Location", keys: keys(Location.self), paths: ["fulfillments[].location"]),
        Place(type: "Barcode", keys: keys(Barcode.self), paths: ["barcode"]),
        Place(type: "Payment", keys: keys(Payment.self), paths: ["payment"]),
        Place(type: "SummaryItem", keys: keys(Payment.SummaryItem.self), paths: ["payment.summaryItems[]"]),
        Place(type: "PaymentTransaction", keys: keys(PaymentTransaction.self), paths: ["payment.transactions[]"]),
        Place(type: "PaymentMethod", keys: keys(PaymentTransaction.PaymentMethod.self), paths: ["payment.transactions[].paymentMethod"]),
        Place(type: "Customer", keys: keys(Customer.self), paths: ["customer"]),
        Place(type: "Application", keys: keys(Application.self), paths: ["associatedApplications[]"]),
        Place(type: "OrderProvider", keys: keys(OrderProvider.self), paths: ["orderProvider"]),
        Place(type: "ReturnInfo", keys: keys(ReturnInfo.self), paths: ["returnInfo"]),
        Place(type: "Return", keys: keys(Return.self), paths: ["returns[]"]),
    ])
    func fixtureUsesEveryKey(_ place: Place) throws {
        let json = try OrderFixtures.json("complete-order")
        var objects = place.paths.flatMap { Self.objects(at: $0, in: json) }
        if let type = place.fulfillmentType {
            objects = objects.filter { $0["fulfillmentType"] == .string(type) }
        }
        let used = Set(objects.flatMap(\.keys))
        #expect(!objects.isEmpty)
        #expect(Set(place.keys).subtracting(used) == [], "keys of \(place.type) the fixture never uses")
    }

    /// The objects at a path where `name[]` means every element of the array `name`.
    static func objects(at path: String, in json: JSONValue) -> [JSONObject] {
        var current = [json]
        for component in path.split(separator: ".") {
            let isArray = component.hasSuffix("[]")
            let key = String(isArray ? component.dropLast(2) : component)
            current = current.flatMap { value -> [JSONValue] in
                guard case .object(let object) = value, let member = object[key] else { return [] }
                if isArray, case .array(let items) = member { return items }
                return isArray ? [] : [member]
            }
        }
        return current.compactMap { if case .object(let object) = $0 { return object } else { return nil } }
    }
}
