import Drawing
import Foundation
import OrderModel

/// Lays an order out as Wallet's order detail screen, top to bottom: merchant, order number and date,
/// the order's status, each fulfilment with its progress, the items, the total.
///
/// The height follows the content, so the painter walks the layout twice: once on a scratch canvas to
/// measure (`drawing` false), once on the real one. One walk for both keeps measuring and drawing from
/// ever disagreeing.
struct OrderPainter {
    let order: Order
    /// The order's images, decoded, by their path in the package.
    let images: [String: Bitmap]
    let palette: OrderPalette
    let canvas: Canvas
    let drawing: Bool

    static let width = 390.0
    static let margin = 16.0
    static let cardPadding = 16.0
    var content: Double { Self.width - 2 * Self.margin }

    /// Walks the layout; returns the height it takes.
    func paint() -> Double {
        if drawing { canvas.fill(Rect(x: 0, y: 0, width: Self.width, height: canvas.size.height), color: palette.background) }
        var y = 20.0
        y = header(at: y)
        y = status(at: y + 12)
        for fulfillment in order.fulfillments { y = card(at: y + 16) { $0.fulfillment(fulfillment, at: $1) } }
        if !order.lineItems.isEmpty { y = card(at: y + 16) { $0.items(at: $1) } }
        return y + 24
    }

    // MARK: Sections

    private func header(at top: Double) -> Double {
        let logoSize = 44.0
        if drawing {
            let frame = Rect(x: Self.margin, y: top, width: logoSize, height: logoSize)
            canvas.fill(frame, color: palette.card, cornerRadius: 10)
            image(order.merchant.logo, in: frame.insetBy(4), mode: .fit(centred: true))
        }
        let name = canvas.layout(order.merchant.displayName, style: TextStyle(size: 20, weight: .bold, maximumLines: 2), width: content - logoSize - 12)
        draw(name, x: Self.margin + logoSize + 12, y: top + max(0, (logoSize - name.size.height) / 2), color: palette.primary)
        var y = top + max(logoSize, name.size.height) + 10
        let number = order.orderNumber.map { "Order \($0) · " } ?? ""
        let line = canvas.layout(number + "Placed " + OrderWords.day(order.createdAt), style: TextStyle(size: 14), width: content)
        draw(line, x: Self.margin, y: y, color: palette.secondary)
        y += line.size.height
        return y
    }

    private func status(at top: Double) -> Double {
        let colour: RGBA = switch order.status {
        case .open: palette.primary
        case .completed: palette.progress
        case .cancelled: palette.cancelled
        }
        let words = canvas.layout(OrderWords.status(order.status), style: TextStyle(size: 28, weight: .bold), width: content)
        draw(words, x: Self.margin, y: top, color: colour)
        var y = top + words.size.height
        if let description = order.statusDescription {
            let text = canvas.layout(description, style: TextStyle(size: 15, maximumLines: 3), width: content)
            draw(text, x: Self.margin, y: y + 2, color: palette.secondary)
            y += text.size.height + 2
        }
        return y
    }

    private func fulfillment(_ fulfillment: Fulfillment, at top: Double) -> Double {
        let width = content - 2 * Self.cardPadding
        let x = Self.margin + Self.cardPadding
        let title: String, words: String, steps: [String], step: Int?, details: [String]
        switch fulfillment {
        case .shipping(let shipping):
            title = ["Shipment", shipping.carrier].compactMap { $0 }.joined(separator: " · ")
            words = shipping.statusDescription ?? OrderWords.words(shipping.status)
            steps = OrderWords.shippingSteps
            step = OrderWords.step(of: shipping.status)
            details = [
                shipping.deliveredAt.map { "Delivered " + OrderWords.day($0) } ?? shipping.estimatedDeliveryAt.map { "Expected " + OrderWords.day($0) },
                shipping.trackingNumber.map { "Tracking number " + $0 },
            ].compactMap { $0 }
        case .pickup(let pickup):
            title = "Pick-up · " + pickup.displayName
            words = pickup.statusDescription ?? OrderWords.words(pickup.status)
            steps = OrderWords.pickupSteps
            step = OrderWords.step(of: pickup.status)
            details = [pickup.pickedUpAt.map { "Picked up " + OrderWords.day($0) } ?? pickup.pickupAt.map { "Pick up from " + OrderWords.day($0) }].compactMap { $0 }
        }
        let heading = canvas.layout(title, style: TextStyle(size: 17, weight: .semibold, maximumLines: 2), width: width)
        draw(heading, x: x, y: top, color: palette.primary)
        var y = top + heading.size.height + 4
        let status = canvas.layout(words, style: TextStyle(size: 15, maximumLines: 2), width: width)
        draw(status, x: x, y: y, color: step == nil ? palette.trouble : palette.primary)
        y += status.size.height + 12
        y = progress(steps: steps, reached: step, at: y, x: x, width: width)
        for detail in details {
            let text = canvas.layout(detail, style: TextStyle(size: 13), width: width)
            draw(text, x: x, y: y + 6, color: palette.secondary)
            y += text.size.height + 6
        }
        return y
    }

    /// A segmented bar, one segment per step, filled up to `reached`; an issue or cancellation
    /// (`reached` nil) draws the whole track in the trouble colour.
    private func progress(steps: [String], reached: Int?, at top: Double, x: Double, width: Double) -> Double {
        let gap = 4.0
        let segment = (width - gap * Double(steps.count - 1)) / Double(steps.count)
        var labelsHeight = 0.0
        for (index, name) in steps.enumerated() {
            let left = x + Double(index) * (segment + gap)
            let colour: RGBA = reached.map { index <= $0 ? palette.progress : palette.track } ?? palette.trouble
            if drawing { canvas.fill(Rect(x: left, y: top, width: segment, height: 6), color: colour, cornerRadius: 3) }
            let label = canvas.layout(name, style: TextStyle(size: 11, weight: index == reached ? .semibold : .regular, maximumLines: 2), width: segment)
            draw(label, x: left, y: top + 10, color: index == reached ? palette.primary : palette.secondary)
            labelsHeight = max(labelsHeight, label.size.height)
        }
        return top + 10 + labelsHeight
    }

    private func items(at top: Double) -> Double {
        let x = Self.margin + Self.cardPadding
        let width = content - 2 * Self.cardPadding
        let heading = canvas.layout("Items", style: TextStyle(size: 17, weight: .semibold), width: width)
        draw(heading, x: x, y: top, color: palette.primary)
        var y = top + heading.size.height + 8
        let thumbnail = 56.0
        for (index, item) in order.lineItems.enumerated() {
            if index > 0, drawing { canvas.line(from: Point(x: x + thumbnail + 12, y: y - 6), to: Point(x: x + width, y: y - 6), color: palette.separator, lineWidth: 0.5) }
            let frame = Rect(x: x, y: y, width: thumbnail, height: thumbnail)
            if drawing {
                canvas.fill(frame, color: palette.placeholder, cornerRadius: 8)
                canvas.clipped(to: frame, cornerRadius: 8) { image(item.image, in: frame, mode: .fill) }
            }
            // Natural width, placed against the right edge (a right-aligned layout keeps its whole box).
            let price = item.price.map { canvas.layout(OrderWords.money($0), style: TextStyle(size: 15, weight: .medium), width: nil) }
            let textX = x + thumbnail + 12
            let textWidth = width - thumbnail - 12 - (price.map { $0.size.width + 8 } ?? 0)
            let title = canvas.layout(item.title, style: TextStyle(size: 15, weight: .semibold, maximumLines: 2), width: textWidth)
            draw(title, x: textX, y: y, color: palette.primary)
            var textY = y + title.size.height
            if let subtitle = item.subtitle {
                let text = canvas.layout(subtitle, style: TextStyle(size: 13, maximumLines: 2), width: textWidth)
                draw(text, x: textX, y: textY, color: palette.secondary)
                textY += text.size.height
            }
            let quantity = canvas.layout("Qty \(item.quantity)", style: TextStyle(size: 13), width: textWidth)
            draw(quantity, x: textX, y: textY, color: palette.secondary)
            textY += quantity.size.height
            if let price { draw(price, x: x + width - price.size.width, y: y, color: palette.primary) }
            y = max(y + thumbnail, textY) + 12
        }
        if let payment = order.payment {
            if drawing { canvas.line(from: Point(x: x, y: y), to: Point(x: x + width, y: y), color: palette.separator, lineWidth: 0.5) }
            let label = canvas.layout("Total", style: TextStyle(size: 17, weight: .semibold), width: width / 2)
            let amount = canvas.layout(OrderWords.money(payment.total), style: TextStyle(size: 17, weight: .semibold), width: nil)
            draw(label, x: x, y: y + 10, color: palette.primary)
            draw(amount, x: x + width - amount.size.width, y: y + 10, color: palette.primary)
            y += 10 + max(label.size.height, amount.size.height)
        }
        return y
    }

    // MARK: Drawing helpers

    /// A rounded card behind what `body` lays out (with the painter it is given) from `top +
    /// padding`; returns its bottom. The card is drawn under its content, so the content is measured
    /// first by a painter that does not draw.
    private func card(at top: Double, _ body: (OrderPainter, Double) -> Double) -> Double {
        let measuring = OrderPainter(order: order, images: images, palette: palette, canvas: canvas, drawing: false)
        let bottom = body(measuring, top + Self.cardPadding)
        if drawing {
            canvas.fill(Rect(x: Self.margin, y: top, width: content, height: bottom + Self.cardPadding - top), color: palette.card, cornerRadius: 12)
            _ = body(self, top + Self.cardPadding)
        }
        return bottom + Self.cardPadding
    }

    private func draw(_ block: TextBlock, x: Double, y: Double, color: RGBA) {
        if drawing { canvas.draw(block, at: Point(x: x, y: y), color: color) }
    }

    private func image(_ path: BundleFilePath?, in rect: Rect, mode: ImageMode) {
        guard let path, let bitmap = images[path.path] else { return }
        canvas.draw(bitmap, in: rect, mode: mode)
    }
}

extension Rect {
    func insetBy(_ inset: Double) -> Rect { Rect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset) }
}
