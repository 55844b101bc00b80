import PassModel

/// Where a shipment is (`ShippingFulfillment.status`, Apple's "ShippingFulfillment").
public enum ShippingStatus: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case open
    case processing
    case onTheWay
    case outForDelivery
    case delivered
    case shipped
    case issue
    case cancelled
}
