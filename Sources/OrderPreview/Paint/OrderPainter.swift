import Drawing
import OrderModel

/// Draws one order from the top down, as Wallet's order detail screen stacks it: the merchant and
/// the order's status on the page, then rounded groups (each fulfilment, the items, the payment).
///
/// It runs twice with one code path: first on a scratch canvas, which measures every group and the
/// whole picture, then on the real canvas with those heights, so each group's background is
/// painted before its rows and what was measured is exactly what is drawn.
final class OrderPainter {
    /// Phone width in points (an iPhone 14's screen).
    static let width = 390.0
    /// From the screen's edge to a group.
    static let margin = 16.0
    /// From a group's edge to its rows.
    static let inset = 16.0
    /// The column every row inside a group shares.
    static let column = (x: margin + inset, width: width - 2 * (margin + inset))

    let canvas: Canvas
    let order: Order
    let palette: OrderPalette
    let images: OrderImages
    let formatter = OrderFormatter()
    /// The group heights of the measuring pass; empty while measuring.
    private let measured: [Double]
    private(set) var groupHeights: [Double] = []
    private(set) var regions: [String: Rect] = [:]
    /// The top of what is drawn next.
    var y = 0.0

    init(canvas: Canvas, order: Order, palette: OrderPalette, images: OrderImages, measured: [Double]) {
        self.canvas = canvas
        self.order = order
        self.palette = palette
        self.images = images
        self.measured = measured
    }

    /// Draws the whole screen; returns its height.
    @discardableResult
    func paint() -> Double {
        canvas.fill(Rect(x: 0, y: 0, width: Self.width, height: canvas.size.height), color: palette.background)
        y = 20
        header()
        fulfillments()
        lineItems()
        payment()
        return y
    }

    /// One rounded group with an optional caption above it; `body` draws its rows down from `y`
    /// inside ``column``.
    func group(_ caption: String?, _ body: () -> Void) {
        if let caption {
            text(caption.uppercased(), style: TextStyle(size: 13), x: Self.margin + Self.inset, width: Self.column.width, color: palette.secondary)
            y += 6
        }
        let top = y, index = groupHeights.count
        if index < measured.count {
            canvas.fill(Rect(x: Self.margin, y: top, width: Self.width - 2 * Self.margin, height: measured[index]), color: palette.group, cornerRadius: 12)
        }
        y += Self.inset
        body()
        y += Self.inset
        groupHeights.append(y - top)
        y += 24
    }

    /// Draws `text` at `y` across `width` from `x`, moves `y` below it and returns its box.
    @discardableResult
    func text(_ text: String, style: TextStyle, x: Double = OrderPainter.column.x, width: Double = OrderPainter.column.width, color: RGBA) -> Rect {
        let block = canvas.layout(text, style: style, width: width)
        canvas.draw(block, at: Point(x: x, y: y), color: color)
        let box = Rect(x: x + block.inset, y: y, width: block.size.width, height: block.size.height)
        y += block.size.height
        return box
    }

    /// The image at `path` filling `rect` with rounded corners, or a neutral placeholder when the
    /// package lacks it or cannot be read. Recorded as `role`.
    func picture(_ path: BundleFilePath?, in rect: Rect, cornerRadius: Double, role: String) {
        record(role, rect)
        guard let bitmap = images[path] else {
            canvas.fill(rect, color: palette.placeholder, cornerRadius: cornerRadius)
            canvas.stroke(rect.insetBy(rect.width / 4), color: palette.secondary.withOpacity(0.5), lineWidth: 1.5, cornerRadius: cornerRadius / 2)
            return
        }
        canvas.clipped(to: rect, cornerRadius: cornerRadius) { canvas.draw(bitmap, in: rect, mode: .fill) }
    }

    /// Records where a part a test samples was drawn.
    func record(_ role: String, _ rect: Rect) { regions[role] = rect }

    /// "+ 3 more" under a list cut at its limit (a picture has a largest size; an order has no longest list).
    func more(_ hidden: Int) {
        guard hidden > 0 else { return }
        y += 12
        text("+ \(hidden) more", style: TextStyle(size: 13), color: palette.secondary)
    }

    /// A hairline across the group's column, between rows.
    func separator() {
        canvas.line(from: Point(x: Self.column.x, y: y), to: Point(x: Self.column.x + Self.column.width, y: y), color: palette.separator, lineWidth: 0.5)
    }
}
