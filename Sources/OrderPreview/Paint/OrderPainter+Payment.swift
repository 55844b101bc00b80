import Drawing
import OrderModel

/// The payment group: the merchant's breakdown (subtotal, shipping, tax), the total, and how it
/// stands and was paid.
extension OrderPainter {
    /// Breakdown lines drawn before "+ N more" (see ``fulfillmentLimit``).
    static let summaryLimit = 12

    func payment() {
        guard let payment = order.payment else { return }
        group("Payment") {
            for item in payment.summaryItems.prefix(Self.summaryLimit) {
                amountRow(item.label, formatter.money(item.value), style: TextStyle(size: 15), color: palette.secondary)
                y += 8
            }
            more(payment.summaryItems.count - Self.summaryLimit)
            if !payment.summaryItems.isEmpty {
                y += 4
                separator()
                y += 12
            }
            amountRow("Total", formatter.money(payment.total), style: TextStyle(size: 17, weight: .semibold), color: palette.label)
            y += 6
            let status = StatusWords(payment.status)
            let line = ([status.text] + payment.paymentMethods).joined(separator: " · ")
            text(line, style: TextStyle(size: 13, maximumLines: 2), color: status.tone == .neutral ? palette.secondary : palette.color(status.tone))
        }
    }

    /// A label on the left and its amount flush right, on one line.
    private func amountRow(_ label: String, _ amount: String, style: TextStyle, color: RGBA) {
        let top = y
        var right = style
        right.alignment = .right
        let box = text(amount, style: right, color: color)
        y = top
        text(label, style: style, width: Self.column.width - box.width - 12, color: color)
        y = max(y, box.maxY)
    }
}
