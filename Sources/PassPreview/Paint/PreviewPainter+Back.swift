import Drawing
import PassModel

/// The back: the pass details sheet, one row per back field in order, with links in link blue.
extension PreviewPainter {
    static let backWidth = 375.0
    static let minimumBackHeight = 468.0
    /// A value longer than this many lines is cut with an ellipsis (a 10,000-character value still
    /// gives a picture of sensible size).
    static let backValueLines = 40

    /// Draws the sheet down from the top; returns its height.
    @discardableResult
    func back(height: Double?) -> Double {
        let width = Self.backWidth, margin = Self.margin
        let sheet = Rect(x: 0, y: 0, width: width, height: height ?? 10_000)
        var y = margin
        canvas.clipped(to: sheet, cornerRadius: 12) {
            canvas.fill(sheet, color: Palette.backBackground)
            let title = strings(pass.description)
            let titleBox = text(title, role: "back.title", style: TextStyle(size: 20, weight: .semibold, maximumLines: 2),
                                in: Rect(x: margin, y: y, width: width - 2 * margin, height: 56), color: Palette.backValue)
            y += titleBox.height + 4
            let organization = text(strings(pass.organizationName), role: "back.organizationName", style: TextStyle(size: 13),
                                    in: Rect(x: margin, y: y, width: width - 2 * margin, height: 18), color: Palette.backLabel)
            y += organization.height + 14
            let fields = pass.style.flatMap { pass[$0]?.backFields } ?? []
            guard !fields.isEmpty else { return }
            let rowsTop = y
            let inner = Rect(x: margin + 12, y: 0, width: width - 2 * margin - 24, height: 0)
            let labelStyle = TextStyle(size: 13), valueStyle = TextStyle(size: 15, maximumLines: Self.backValueLines)
            // Measured first, so the white group can be painted behind the rows before they are drawn.
            let rows = fields.map { field -> (field: Field, label: String, runs: [TextRun], height: Double) in
                let label = label(of: field)
                let runs = LinkDetector.runs(for: field, text: value(of: field))
                let valueHeight = canvas.layout(runs, style: valueStyle, width: inner.width).size.height
                return (field, label, runs, 20 + (label.isEmpty ? 0 : lineHeight(labelStyle) + 2) + valueHeight)
            }
            let groupHeight = rows.reduce(0) { $0 + $1.height }
            canvas.fill(Rect(x: margin, y: rowsTop, width: width - 2 * margin, height: groupHeight), color: Palette.backRow, cornerRadius: 10)
            for (index, row) in rows.enumerated() {
                var rowY = y + 10
                if !row.label.isEmpty {
                    let box = text(row.label, role: "back.\(row.field.key).label", style: labelStyle,
                                   in: Rect(x: inner.x, y: rowY, width: inner.width, height: 18), color: Palette.backLabel)
                    rowY += box.height + 2
                }
                text(row.runs, role: "back.\(row.field.key).value", style: valueStyle,
                     in: Rect(x: inner.x, y: rowY, width: inner.width, height: 0), color: Palette.backValue)
                y += row.height
                if index < rows.count - 1 {
                    canvas.line(from: Point(x: inner.x, y: y), to: Point(x: width - margin, y: y), color: Palette.backSeparator, lineWidth: 0.5)
                }
            }
            y += margin
        }
        return max(Self.minimumBackHeight, y)
    }
}
