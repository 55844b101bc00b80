import OrderModel

/// A status put into words, with its tone. Every case of every status enum is mapped here, so a
/// new case Apple adds is a compile error rather than a blank headline.
struct StatusWords: Sendable, Hashable {
    let text: String
    let tone: StatusTone

    private init(_ text: String, _ tone: StatusTone) {
        self.text = text
        self.tone = tone
    }

    /// The order as a whole (`status`).
    init(_ status: OrderStatus) {
        switch status {
        case .open: self.init("Order placed", .neutral)
        case .completed: self.init("Completed", .done)
        case .cancelled: self.init("Cancelled", .cancelled)
        }
    }

    /// A shipment (`ShippingFulfillment.status`).
    init(_ status: ShippingStatus) {
        switch status {
        case .open: self.init("Not shipped yet", .neutral)
        case .processing: self.init("Preparing shipment", .progress)
        case .shipped: self.init("Shipped", .progress)
        case .onTheWay: self.init("On the way", .progress)
        case .outForDelivery: self.init("Out for delivery", .progress)
        case .delivered: self.init("Delivered", .done)
        case .issue: self.init("Delivery issue", .problem)
        case .cancelled: self.init("Shipment cancelled", .cancelled)
        }
    }

    /// A pick-up (`PickupFulfillment.status`).
    init(_ status: PickupStatus) {
        switch status {
        case .open: self.init("Not ready yet", .neutral)
        case .processing: self.init("Preparing your order", .progress)
        case .readyForPickup: self.init("Ready for pickup", .done)
        case .pickedUp: self.init("Picked up", .done)
        case .issue: self.init("Pickup issue", .problem)
        case .cancelled: self.init("Pickup cancelled", .cancelled)
        }
    }

    /// The payment (`payment.status`).
    init(_ status: PaymentStatus) {
        switch status {
        case .pending: self.init("Payment pending", .neutral)
        case .authorized: self.init("Authorized", .neutral)
        case .paid: self.init("Paid", .done)
        case .refunded: self.init("Refunded", .neutral)
        case .declined: self.init("Payment declined", .cancelled)
        case .voided: self.init("Payment voided", .cancelled)
        }
    }
}
