import OrderModel

/// How far a fulfilment has come, as the step bar shows it: the stages in order and the position
/// reached, in stages (1.5 is halfway from the second stage to the third).
///
/// Every status has its own position, so two statuses never look alike; `issue` and `cancelled`
/// have none (`nil`): they are not a step on the way and the bar says so in their tone.
struct FulfillmentProgress: Sendable, Hashable {
    let stages: [String]
    let position: Double?

    /// A shipment: ordered, shipped, out for delivery, delivered; `processing` is on the way to
    /// shipped and `onTheWay` between shipped and out for delivery.
    init(_ status: ShippingStatus) {
        stages = ["Ordered", "Shipped", "Out for delivery", "Delivered"]
        switch status {
        case .open: position = 0
        case .processing: position = 0.5
        case .shipped: position = 1
        case .onTheWay: position = 1.5
        case .outForDelivery: position = 2
        case .delivered: position = 3
        case .issue, .cancelled: position = nil
        }
    }

    /// A pick-up: ordered, ready, picked up; `processing` is on the way to ready.
    init(_ status: PickupStatus) {
        stages = ["Ordered", "Ready", "Picked up"]
        switch status {
        case .open: position = 0
        case .processing: position = 0.5
        case .readyForPickup: position = 1
        case .pickedUp: position = 2
        case .issue, .cancelled: position = nil
        }
    }
}
