import Drawing
import Foundation

/// A finished picture of an order.
public struct OrderPicture: Sendable {
    /// The PNG file.
    public let png: Data
    /// Its size in pixels: 390 points wide, as tall as the order's content, times the scale.
    public let width: Int
    public let height: Int
    /// Where the parts a test samples were drawn, in points: `merchant.logo`, `fulfillment.0.progress`,
    /// `lineItem.0.image`. Package-only: a test finds what it checks without copying the layout's
    /// numbers, and callers get no promise about where things go.
    package let regions: [String: Rect]
}
