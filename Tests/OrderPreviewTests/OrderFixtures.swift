import Drawing
import Foundation
import OrderModel
import OrderPackage
import OrderPreview
import PasswrightTesting

/// The sample order `Templates/orders/shop`, loaded as the server loads an order template, and the
/// pixel reading every suite here shares.
enum OrderFixtures {
    static func shop() throws -> OrderSource {
        try OrderSource.load(from: Repository.templates.appendingPathComponent("orders/shop"))
    }

    /// `order` with its first fulfilment (a shipment in the sample) moved to `status`.
    static func order(_ order: Order, shipping status: ShippingStatus) throws -> Order {
        guard case .shipping(var shipping) = order.fulfillments.first else { throw FixtureError("the sample's first fulfilment is not a shipment") }
        shipping.status = status
        var changed = order
        changed.fulfillments[0] = .shipping(shipping)
        return changed
    }

    /// The picture's pixel under the point `(x, y)`.
    static func pixel(_ bitmap: Bitmap, x: Double, y: Double, scale: Int) throws -> RGBA {
        guard let pixel = bitmap.pixel(x: Int(x * Double(scale)), y: Int(y * Double(scale))) else {
            throw FixtureError("(\(x), \(y)) pt is outside the \(bitmap.pixelWidth) × \(bitmap.pixelHeight) px picture")
        }
        return pixel
    }

    /// The colour most pixels of the image have.
    static func dominantColor(of bitmap: Bitmap) -> RGBA? {
        var counts: [RGBA: Int] = [:]
        for y in 0..<bitmap.pixelHeight {
            for x in 0..<bitmap.pixelWidth {
                if let pixel = bitmap.pixel(x: x, y: y) { counts[pixel, default: 0] += 1 }
            }
        }
        return counts.max { $0.value < $1.value }?.key
    }

    /// Whether two colours differ by at most `tolerance` in every channel (filtering and
    /// anti-aliasing move a channel by a few steps).
    static func alike(_ first: RGBA, _ second: RGBA, tolerance: Int = 6) -> Bool {
        abs(Int(first.red) - Int(second.red)) <= tolerance && abs(Int(first.green) - Int(second.green)) <= tolerance
            && abs(Int(first.blue) - Int(second.blue)) <= tolerance
    }

    /// Relative luminance, 0 (black) to 1 (white), without gamma: enough to tell dark from light.
    static func brightness(_ color: RGBA) -> Double {
        (0.2126 * Double(color.red) + 0.7152 * Double(color.green) + 0.0722 * Double(color.blue)) / 255
    }
}
