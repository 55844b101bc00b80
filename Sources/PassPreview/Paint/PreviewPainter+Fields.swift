import Drawing
import PassModel

/// Fields as Wallet sets them: a small label above its value, in columns.
extension PreviewPainter {
    /// The type sizes of one kind of field.
    struct FieldFonts {
        var label: TextStyle
        var value: TextStyle
        var labelBelow = false

        static let header = FieldFonts(label: TextStyle(size: 10, weight: .semibold), value: TextStyle(size: 17))
        static let row = FieldFonts(label: TextStyle(size: 11, weight: .semibold), value: TextStyle(size: 17))
        static let primaryOverStrip = FieldFonts(label: TextStyle(size: 15), value: TextStyle(size: 44, weight: .light), labelBelow: true)
        static let primary = FieldFonts(label: TextStyle(size: 13, weight: .semibold), value: TextStyle(size: 30))
        static let boardingPrimary = FieldFonts(label: TextStyle(size: 13, weight: .semibold), value: TextStyle(size: 38, weight: .light))
    }

    /// The height a field of these fonts takes.
    func fieldHeight(_ fonts: FieldFonts) -> Double { lineHeight(fonts.label) + lineHeight(fonts.value) }

    /// One field in `rect`: label and value, each cut with an ellipsis to the column's width.
    @discardableResult
    func field(_ field: Field, group: String, in rect: Rect, fonts: FieldFonts, alignment: TextStyle.Alignment? = nil,
               valueColor: RGBA? = nil) -> Double {
        var labelStyle = fonts.label, valueStyle = fonts.value
        let align = alignment ?? Self.alignment(of: field)
        labelStyle.alignment = align
        valueStyle.alignment = align
        let labelHeight = lineHeight(labelStyle), valueHeight = lineHeight(valueStyle)
        let labelY = fonts.labelBelow ? rect.y + valueHeight : rect.y
        let valueY = fonts.labelBelow ? rect.y : rect.y + labelHeight
        let label = label(of: field)
        if !label.isEmpty {
            text(label, role: "\(group).\(field.key).label", style: labelStyle,
                 in: Rect(x: rect.x, y: labelY, width: rect.width, height: labelHeight), color: palette.label)
        }
        text(value(of: field), role: "\(group).\(field.key).value", style: valueStyle,
             in: Rect(x: rect.x, y: valueY, width: rect.width, height: valueHeight), color: valueColor ?? palette.foreground)
        return labelHeight + valueHeight
    }

    /// Fields side by side across `rect` (Wallet's secondary and auxiliary rows): each column as wide
    /// as its text, the space left spread between them, the last of several flush right. When they
    /// do not fit, the widest columns give way first and their values end in an ellipsis, as Wallet
    /// cuts them. Returns the height used.
    @discardableResult
    func row(_ fields: [Field], group: String, in rect: Rect, fonts: FieldFonts = .row) -> Double {
        guard !fields.isEmpty else { return 0 }
        let gap = 10.0
        let natural = fields.map { max(width(of: label(of: $0), style: fonts.label), width(of: value(of: $0), style: fonts.value)) + 1 }
        let widths = Self.fit(natural, into: rect.width - gap * Double(fields.count - 1))
        let spare = rect.width - widths.reduce(0, +)
        let spacing = fields.count > 1 ? spare / Double(fields.count - 1) : 0
        var x = rect.x, height = 0.0
        for (index, item) in fields.enumerated() {
            let column = Rect(x: x, y: rect.y, width: widths[index], height: rect.height)
            let alignment: TextStyle.Alignment? = item.textAlignment == nil && fields.count > 1 && index == fields.count - 1 ? .right : nil
            height = max(height, field(item, group: group, in: column, fonts: fonts, alignment: alignment))
            x += widths[index] + spacing
        }
        return height
    }

    /// Column widths that fit `available`: unchanged when they fit; otherwise the widest are cut down
    /// to a common width, so short fields stay whole.
    static func fit(_ widths: [Double], into available: Double) -> [Double] {
        guard widths.reduce(0, +) > available else { return widths }
        let sorted = widths.sorted()
        var remaining = available
        for (index, width) in sorted.enumerated() {
            let share = remaining / Double(sorted.count - index)
            if width > share { return widths.map { min($0, share) } }
            remaining -= width
        }
        return widths
    }

    static func alignment(of field: Field) -> TextStyle.Alignment {
        switch field.textAlignment {
        case .left?: return .left
        case .center?: return .centre
        case .right?: return .right
        case .natural?, nil: return .natural
        }
    }
}
