import Foundation
import Testing
import PassModel
import OrderModel

/// The sample orders in `Templates/orders/` must stay valid against the model.
@Suite struct SampleOrderTests {
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates/orders")

    @Test func shopOrderIsValid() throws {
        let data = try Data(contentsOf: Self.templates.appendingPathComponent("shop/order.json"))
        let (order, issues) = try Order.decode(data)
        #expect(issues == [])
        #expect(order.validate() == [])
        #expect(order.lineItems.count == 2)
        guard case .shipping(let shipment)? = order.fulfillments.first, order.fulfillments.count == 1 else {
            Issue.record("expected exactly one shipping fulfillment, found \(order.fulfillments)")
            return
        }
        #expect(shipment.lineItems.map(\.title) == order.lineItems.map(\.title))
        // The breakdown adds up: the subtotal is the line items' unit prices times their quantities.
        let subtotal = order.lineItems.reduce(Decimal(0)) { $0 + ($1.price?.amount ?? 0) * Decimal($1.quantity) }
        let payment = try #require(order.payment)
        #expect(payment.summaryItems.first?.value.amount == subtotal)
        #expect(payment.summaryItems.reduce(Decimal(0)) { $0 + $1.value.amount } == payment.total.amount)
        #expect(order.jsonValue() == (try JSONValue.parse(data)))
    }
}
