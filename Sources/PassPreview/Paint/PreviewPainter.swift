import Drawing
import Foundation
import PassModel

/// Draws one pass onto a canvas and keeps a record of every text box it placed.
///
/// Layout and drawing happen together: text is measured by the canvas that draws it, so what is
/// recorded is exactly what was drawn.
final class PreviewPainter {
    let canvas: Canvas
    let pass: Pass
    let palette: Palette
    let strings: PassStrings
    let formatter: FieldFormatter
    let images: PassImages
    /// Where the side being drawn starts in the picture (the back of a two-sided picture is to the right).
    var offset = Point(x: 0, y: 0)
    var side: PreviewOptions.Side = .front
    private(set) var texts: [PlacedText] = []
    var barcode: PlacedBarcode?
    var problems: [String] = []

    init(canvas: Canvas, pass: Pass, strings: PassStrings, formatter: FieldFormatter, images: PassImages) {
        self.canvas = canvas
        self.pass = pass
        self.palette = Palette(pass)
        self.strings = strings
        self.formatter = formatter
        self.images = images
    }

    /// Lays `text` out inside `bounds` (one line unless `style` allows more), draws it at the top
    /// of `bounds` in its alignment, and records it. Returns the box drawn.
    @discardableResult
    func text(_ text: String, role: String, style: TextStyle, in bounds: Rect, color: RGBA) -> Rect {
        self.text([TextRun(text)], role: role, style: style, in: bounds, color: color)
    }

    @discardableResult
    func text(_ runs: [TextRun], role: String, style: TextStyle, in bounds: Rect, color: RGBA) -> Rect {
        let block = canvas.layout(runs, style: style, width: bounds.width)
        canvas.draw(block, at: Point(x: bounds.x, y: bounds.y), color: color)
        let drawn = Rect(x: bounds.x + block.inset, y: bounds.y, width: min(block.size.width, bounds.width), height: block.size.height)
        texts.append(PlacedText(
            role: role, text: block.text, rect: shifted(drawn), bounds: shifted(bounds), isEllipsized: block.isEllipsized,
            unknownGlyphs: block.unknownGlyphs, side: side))
        return drawn
    }

    /// The natural width of `text` in `style`, for columns that size to their content.
    func width(of text: String, style: TextStyle) -> Double {
        canvas.layout(text, style: style, width: nil).size.width
    }

    /// The height one line of `style` takes.
    func lineHeight(_ style: TextStyle) -> Double {
        canvas.layout("Ag", style: style, width: nil).size.height
    }

    /// Draws the slot's image into `rect`; returns the area it covers, or `nil` without the image.
    @discardableResult
    func image(_ slot: String, in rect: Rect, mode: ImageMode, blurred: Bool = false) -> Rect? {
        guard let (bitmap, _) = images[slot] else { return nil }
        return canvas.draw(bitmap, in: rect, mode: mode, blurred: blurred)
    }

    /// The label and value of a field as text, translated and formatted.
    func label(of field: Field) -> String { strings(field.label) ?? "" }
    func value(of field: Field) -> String { formatter.text(of: field, strings: strings) }

    private func shifted(_ rect: Rect) -> Rect {
        Rect(x: rect.x + offset.x, y: rect.y + offset.y, width: rect.width, height: rect.height)
    }

    /// Rounds a length in points down to whole pixels, so barcode modules land on the pixel grid.
    func pixelFloor(_ points: Double) -> Double { (points * canvas.scale).rounded(.down) / canvas.scale }
    func pixelRound(_ points: Double) -> Double { (points * canvas.scale).rounded() / canvas.scale }
}
