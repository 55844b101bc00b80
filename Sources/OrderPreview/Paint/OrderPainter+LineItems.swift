import Drawing
import OrderModel

/// The items, one row each in the order given: thumbnail, title, subtitle and quantity on the left,
/// the price on the right (the line's total, with the unit price under it when there are several).
extension OrderPainter {
    /// Rows drawn before "+ N more" (see ``fulfillmentLimit``).
    static let lineItemLimit = 30
    static let thumbnailSize = 60.0

    func lineItems() {
        guard !order.lineItems.isEmpty else { return }
        group("Items") {
            for (index, item) in order.lineItems.prefix(Self.lineItemLimit).enumerated() {
                if index > 0 {
                    y += 12
                    separator()
                    y += 12
                }
                lineItem(item, role: "lineItem.\(index).image")
            }
            more(order.lineItems.count - Self.lineItemLimit)
        }
    }

    private func lineItem(_ item: LineItem, role: String) {
        let top = y, column = Self.column, size = Self.thumbnailSize
        picture(item.image, in: Rect(x: column.x, y: top, width: size, height: size), cornerRadius: 10, role: role)
        var right = column.x + column.width, bottom = top + size
        if let price = item.price {
            let total = formatter.money(price, times: item.quantity)
            let each = item.quantity > 1 ? "\(formatter.money(price)) each" : nil
            let totalStyle = TextStyle(size: 15, weight: .medium, alignment: .right), eachStyle = TextStyle(size: 13, alignment: .right)
            let natural = max(canvas.layout(total, style: totalStyle, width: nil).size.width,
                              each.map { canvas.layout($0, style: eachStyle, width: nil).size.width } ?? 0)
            let width = min(natural + 1, column.width * 0.35)
            right -= width + 12
            text(total, style: totalStyle, x: right + 12, width: width, color: palette.label)
            if let each { text(each, style: eachStyle, x: right + 12, width: width, color: palette.secondary) }
            bottom = max(bottom, y)
            y = top
        }
        let x = column.x + size + 12, width = right - x
        text(item.title, style: TextStyle(size: 15, weight: .semibold, maximumLines: 2), x: x, width: width, color: palette.label)
        if let subtitle = item.subtitle {
            text(subtitle, style: TextStyle(size: 13, maximumLines: 2), x: x, width: width, color: palette.secondary)
        }
        text("Qty \(item.quantity)", style: TextStyle(size: 13), x: x, width: width, color: palette.secondary)
        y = max(y, bottom)
    }
}
