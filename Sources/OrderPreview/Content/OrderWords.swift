import Foundation
import OrderModel
import PassModel

/// The words Wallet's order screen uses for statuses and progress, and how it writes money and dates
/// (English; the order's own texts are drawn as they are).
enum OrderWords {
    static func status(_ status: OrderStatus) -> String {
        switch status {
        case .open: "Order placed"
        case .completed: "Completed"
        case .cancelled: "Cancelled"
        }
    }

    /// A shipment's steps, and how far `status` is along them (`nil`: off the track, as an issue or
    /// a cancellation is).
    static let shippingSteps = ["Processing", "Shipped", "Out for delivery", "Delivered"]

    static func step(of status: ShippingStatus) -> Int? {
        switch status {
        case .open, .processing: 0
        case .shipped, .onTheWay: 1
        case .outForDelivery: 2
        case .delivered: 3
        case .issue, .cancelled: nil
        }
    }

    static func words(_ status: ShippingStatus) -> String {
        switch status {
        case .open: "Order received"
        case .processing: "Preparing to ship"
        case .shipped: "Shipped"
        case .onTheWay: "On the way"
        case .outForDelivery: "Out for delivery"
        case .delivered: "Delivered"
        case .issue: "There is a problem with this shipment"
        case .cancelled: "Shipment cancelled"
        }
    }

    static let pickupSteps = ["Processing", "Ready for pick-up", "Picked up"]

    static func step(of status: PickupStatus) -> Int? {
        switch status {
        case .open, .processing: 0
        case .readyForPickup: 1
        case .pickedUp: 2
        case .issue, .cancelled: nil
        }
    }

    static func words(_ status: PickupStatus) -> String {
        switch status {
        case .open: "Order received"
        case .processing: "Being prepared"
        case .readyForPickup: "Ready for pick-up"
        case .pickedUp: "Picked up"
        case .issue: "There is a problem with this pick-up"
        case .cancelled: "Pick-up cancelled"
        }
    }

    /// `€129.90`, `$12.00`: the amount in its currency, as an English-speaking iPhone writes it.
    static func money(_ amount: CurrencyAmount) -> String {
        amount.amount.formatted(.currency(code: amount.currency.code).locale(Locale(identifier: "en_US")))
    }

    /// `12 May 2025`, in the date's own zone.
    static func day(_ date: W3CDate) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: "en_GB"))
        style.timeZone = TimeZone(secondsFromGMT: date.secondsFromGMT) ?? .gmt
        return date.date.formatted(style)
    }
}
