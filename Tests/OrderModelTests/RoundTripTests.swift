import Foundation
import Testing
import PassModel
import OrderModel

@Suite struct RoundTripTests {
    @Test func completeOrderDecodesWithoutIssues() throws {
        let (order, issues) = try Order.decode(OrderFixtures.data("complete-order"))
        // An unknown-key warning here means the model lacks a documented key the fixture uses.
        #expect(issues == [])
        #expect(order.validate() == [])
        #expect(order.fulfillments.map(\.fulfillmentType) == [.shipping, .pickup])
        #expect(order.payment?.total.amount == Decimal(string: "31.49"))
        #expect(order.webServiceURL?.text == "https://bakery.example.com/wallet/orders")
    }

    @Test func completeOrderRoundTripsKeyForKey() throws {
        let json = try OrderFixtures.json("complete-order")
        let (order, _) = try Order.decode(json)
        let encoded = order.jsonValue()
        // Compare member by member first, so a failure names the key that differs.
        guard case .object(let original) = json, case .object(let written) = encoded else {
            Issue.record("not objects")
            return
        }
        #expect(Set(written.keys) == Set(original.keys))
        for (key, value) in original {
            #expect(written[key] == value, "key \(key)")
        }
        #expect(encoded == json)
    }

    @Test func canonicalJSONIsWrittenByteForByte() throws {
        // The fixture's tree written with sorted keys is canonical: encoding the decoded order must give the same bytes.
        let canonical = try OrderFixtures.json("complete-order").serialized(sortedKeys: true)
        let (order, _) = try Order.decode(canonical)
        #expect(order.encoded() == canonical)
        #expect(String(decoding: order.encoded(), as: UTF8.self).contains("\"amount\":31.49"))
    }

    @Test func decodingTheEncodingGivesTheSameOrder() throws {
        var order = Order(
            orderTypeIdentifier: "order.com.example.bakery", orderIdentifier: "42",
            orderManagementURL: try #require(OrderURL("https://bakery.example.com/orders/42")), status: .open,
            merchant: Merchant(displayName: "Example Bakery", merchantIdentifier: "merchant.com.example.bakery",
                               url: try #require(OrderURL("https://bakery.example.com"))),
            createdAt: try #require(W3CDate("2025-03-01T09:30:00+01:00")))
        var item = LineItem(title: "Croissant", quantity: 6)
        item.price = CurrencyAmount(amount: Decimal(string: "2.25")!, currency: try #require(CurrencyCode("EUR")))
        item.image = BundleFilePath("croissant.png")
        order.lineItems = [item]
        var shipping = ShippingFulfillment(fulfillmentIdentifier: "ship-1", status: .onTheWay)
        shipping.estimatedDeliveryAt = W3CDate("2025-03-03T14:00:00+01:00")
        shipping.estimatedDeliveryWindowDuration = ISODuration("PT2H")
        var pickup = PickupFulfillment(fulfillmentIdentifier: "pickup-1", displayName: "Market Street", status: .readyForPickup)
        pickup.location = Location(latitude: 37.79, longitude: -122.4)
        order.fulfillments = [.shipping(shipping), .pickup(pickup)]
        order.payment = Payment(total: CurrencyAmount(amount: Decimal(string: "13.5")!, currency: try #require(CurrencyCode("EUR"))), status: .paid)
        order.webServiceURL = HTTPSURL("https://bakery.example.com/wallet")
        order.authenticationToken = String(repeating: "t", count: 16)

        let (decoded, issues) = try Order.decode(order.encoded())
        #expect(issues == [])
        #expect(decoded == order)
        #expect(decoded.createdAt.secondsFromGMT == 3600)
    }

    @Test func unknownKeysSurviveARoundTrip() throws {
        let json = OrderFixtures.minimal
            .setting("x-shopReference", to: .string("internal-17"))
            .setting("merchant.x-tier", to: .number(3))
            .setting("lineItems", to: .array([.object(["title": .string("Croissant"), "quantity": .number(1),
                                                        "x-colour": .object(["name": .string("golden")])])]))
            .setting("fulfillments", to: .array([.object(["fulfillmentType": .string("shipping"), "fulfillmentIdentifier": .string("s1"),
                                                          "status": .string("open"), "x-depot": .string("Hamburg")])]))
        let (order, issues) = try Order.decode(json)
        #expect(Set(issues.map(\.path)) == ["x-shopReference", "merchant.x-tier", "lineItems[0].x-colour", "fulfillments[0].x-depot"])
        #expect(issues.allSatisfy { $0.rule == "unknownKey" && $0.severity == .warning })
        #expect(order.unknownKeys["x-shopReference"] == .string("internal-17"))
        #expect(order.jsonValue() == json)
    }
}
