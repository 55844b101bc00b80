import Drawing
import OrderModel

/// One group per shipment or pick-up, in the order given: its status in words, who carries it or
/// where to collect it, the step bar, and when it arrives or can be collected.
extension OrderPainter {
    /// Fulfilments drawn before "+ N more": enough for any real order, few enough that the picture
    /// stays within the canvas's largest size at @3x.
    static let fulfillmentLimit = 6

    func fulfillments() {
        for (index, fulfillment) in order.fulfillments.prefix(Self.fulfillmentLimit).enumerated() {
            switch fulfillment {
            case .shipping(let shipping): self.shipping(shipping, role: "fulfillment.\(index).progress")
            case .pickup(let pickup): self.pickup(pickup, role: "fulfillment.\(index).progress")
            }
        }
        more(order.fulfillments.count - Self.fulfillmentLimit)
    }

    private func shipping(_ shipping: ShippingFulfillment, role: String) {
        // Wallet words a shipment as a delivery when the merchant says so (`shippingType`).
        group(shipping.shippingType == .delivery ? "Delivery" : "Shipment") {
            let words = StatusWords(shipping.status)
            headline(words, description: shipping.statusDescription)
            let carrier = [shipping.carrier, shipping.trackingNumber].compactMap { $0 }.joined(separator: " · ")
            if !carrier.isEmpty {
                text(carrier, style: TextStyle(size: 15), color: palette.secondary)
            }
            y += 16
            progress(FulfillmentProgress(shipping.status), tone: words.tone, role: role)
            if let delivered = shipping.deliveredAt {
                detail("Delivered", formatter.moment(delivered))
            } else if let estimate = shipping.estimatedDeliveryAt {
                detail("Estimated delivery", formatter.moment(estimate, window: shipping.estimatedDeliveryWindowDuration, showsTime: false))
            }
        }
    }

    private func pickup(_ pickup: PickupFulfillment, role: String) {
        group("Pickup") {
            let words = StatusWords(pickup.status)
            headline(words, description: pickup.statusDescription)
            text(pickup.displayName, style: TextStyle(size: 15, weight: .medium, maximumLines: 2), color: palette.label)
            if let address = pickup.address.map(Self.oneLine), !address.isEmpty {
                text(address, style: TextStyle(size: 15, maximumLines: 2), color: palette.secondary)
            }
            y += 16
            progress(FulfillmentProgress(pickup.status), tone: words.tone, role: role)
            if let pickedUp = pickup.pickedUpAt {
                detail("Picked up", formatter.moment(pickedUp))
            } else if let opens = pickup.pickupAt {
                detail("Pickup window", formatter.moment(opens, window: pickup.pickupWindowDuration))
            }
        }
    }

    /// The status in words, in its tone, and the merchant's message about it.
    private func headline(_ words: StatusWords, description: String?) {
        text(words.text, style: TextStyle(size: 20, weight: .semibold, maximumLines: 2), color: palette.color(words.tone))
        y += 2
        if let description {
            text(description, style: TextStyle(size: 15, maximumLines: 3), color: palette.secondary)
        }
    }

    /// A small caption over its value, under the step bar.
    private func detail(_ caption: String, _ value: String) {
        y += 14
        text(caption, style: TextStyle(size: 13), color: palette.secondary)
        y += 2
        text(value, style: TextStyle(size: 15, maximumLines: 2), color: palette.label)
    }

    /// Street lines, then postal code and town: `Hauptstraße 5, 10115 Berlin`.
    static func oneLine(_ address: Address) -> String {
        let town = [address.postalCode, address.locality].compactMap { $0 }.joined(separator: " ")
        return (address.addressLines + [town]).filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
