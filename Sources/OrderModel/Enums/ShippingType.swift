import PassModel

/// How Wallet words a shipment (`shippingType`): `shipping` (the default) or `delivery` (Apple's "ShippingFulfillment").
public enum ShippingType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case shipping
    case delivery
}
