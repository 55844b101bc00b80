/// What an order erasure (`DELETE /api/v1/orders/{orderType}/{orderId}`, `POST
/// /api/v1/orders/erasures`) did, per order.
public struct OrderErasureResult: WireValue {
    public static let schemaName = "OrderErasureResult"

    public var erased: [Order]

    public init(erased: [Order]) {
        self.erased = erased
    }

    public struct Order: Codable, Sendable, Equatable {
        public var orderTypeIdentifier: String
        public var orderIdentifier: String
        /// Erased by an earlier request: nothing was done now.
        public var alreadyErased: Bool
        /// Pushes queued now, so the devices fetch the erased order.
        public var pushesQueued: Int

        public init(orderTypeIdentifier: String, orderIdentifier: String, alreadyErased: Bool, pushesQueued: Int) {
            (self.orderTypeIdentifier, self.orderIdentifier, self.alreadyErased, self.pushesQueued) = (orderTypeIdentifier, orderIdentifier, alreadyErased, pushesQueued)
        }
    }

    public init(_ erasures: [OrderService.Erasure]) {
        erased = erasures.map {
            Order(orderTypeIdentifier: $0.key.orderTypeIdentifier, orderIdentifier: $0.key.orderIdentifier, alreadyErased: $0.alreadyErased, pushesQueued: $0.pushesQueued)
        }
    }
}
