import PassModel

/// Where a pick-up is (`PickupFulfillment.status`, Apple's "PickupFulfillment").
public enum PickupStatus: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case open
    case processing
    case readyForPickup
    case pickedUp
    case issue
    case cancelled
}
