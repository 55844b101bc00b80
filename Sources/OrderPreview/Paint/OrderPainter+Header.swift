import Drawing
import OrderModel

/// The top of the screen, on the page itself: the merchant's logo and name, the order number and
/// date beside them, and the order's status as the headline (with the merchant's own words under it).
extension OrderPainter {
    static let logoSize = 52.0

    func header() {
        let top = y, pageWidth = Self.width - 2 * Self.margin
        let logo = Rect(x: Self.margin, y: top, width: Self.logoSize, height: Self.logoSize)
        picture(order.merchant.logo, in: logo, cornerRadius: 12, role: "merchant.logo")
        let x = logo.maxX + 12, width = Self.width - Self.margin - x
        text(order.merchant.displayName, style: TextStyle(size: 20, weight: .semibold, maximumLines: 2), x: x, width: width, color: palette.label)
        y += 2
        if let number = order.orderNumber {
            text("Order \(number)", style: TextStyle(size: 13), x: x, width: width, color: palette.secondary)
        }
        text("Placed \(formatter.day(order.createdAt))", style: TextStyle(size: 13), x: x, width: width, color: palette.secondary)
        y = max(y, logo.maxY) + 24
        let status = StatusWords(order.status)
        text(status.text, style: TextStyle(size: 30, weight: .bold, maximumLines: 2), x: Self.margin, width: pageWidth, color: palette.color(status.tone))
        if let description = order.statusDescription {
            y += 4
            text(description, style: TextStyle(size: 15, maximumLines: 4), x: Self.margin, width: pageWidth, color: palette.secondary)
        }
        y += 20
    }
}
