import Drawing
import PassModel

/// The top band of the classic layouts: `logo` and `logoText` on the left, up to three header
/// fields on the right (Apple's "Pass Design and Creation": header fields stay visible when passes
/// are stacked, so they win the space; the logo text gives way first).
extension PreviewPainter {
    static let margin = 16.0
    static let headerTop = 12.0
    static let headerHeight = 50.0

    /// Draws the band across `width`; returns its bottom edge.
    @discardableResult
    func header(fields: [Field], width: Double) -> Double {
        let top = Self.headerTop, height = Self.headerHeight, margin = Self.margin
        var logoEnd = margin
        if let natural = images.pointSize(of: "logo") {
            let factor = min(1, 160 / natural.width, height / natural.height)
            let size = Size(width: natural.width * factor, height: natural.height * factor)
            let rect = Rect(x: margin, y: top + (height - size.height) / 2, width: size.width, height: size.height)
            if let drawn = image("logo", in: rect, mode: .fit(centred: false)) { logoEnd = drawn.maxX }
        }
        // Header fields from the right; the leftmost are dropped when they would reach the logo.
        var left = width - margin
        let fonts = FieldFonts.header
        for field in fields.prefix(3).reversed() {
            let natural = max(self.width(of: label(of: field), style: fonts.label), self.width(of: value(of: field), style: fonts.value))
            let columnWidth = min(natural + 1, 130)
            guard left - columnWidth >= logoEnd + 24 else { break }
            left -= columnWidth
            let fieldHeight = self.fieldHeight(fonts)
            self.field(field, group: "header", in: Rect(x: left, y: top + (height - fieldHeight) / 2, width: columnWidth, height: fieldHeight),
                       fonts: fonts, alignment: field.textAlignment == nil ? .right : nil)
            left -= 12
        }
        if let logoText = strings(pass.logoText), !logoText.isEmpty {
            let style = TextStyle(size: 17, weight: .semibold)
            let x = logoEnd + (logoEnd > margin ? 8 : 0)
            let lineHeight = self.lineHeight(style)
            if left - x > 20 {
                text(logoText, role: "logoText", style: style,
                     in: Rect(x: x, y: top + (height - lineHeight) / 2, width: left - x, height: lineHeight), color: palette.foreground)
            }
        }
        return top + height
    }
}
