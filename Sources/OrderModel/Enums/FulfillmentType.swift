import PassModel

/// Which kind of fulfilment an entry of `fulfillments` is (`fulfillmentType`): it decides which keys
/// the entry has (Apple's "ShippingFulfillment" and "PickupFulfillment"). No digital type is documented.
public enum FulfillmentType: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case shipping
    case pickup
}
