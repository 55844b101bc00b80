internal import CPangoCairo

/// Text laid out for one box: shaped, wrapped and cut to its lines, measured before it is drawn.
///
/// Made by ``Canvas/layout(_:style:width:)`` and drawn on the same canvas.
public final class TextBlock {
    let layout: OpaquePointer
    /// The size the text takes, in points (its logical box: line height included).
    public let size: Size
    /// The horizontal offset of the text inside its box (non-zero when centred or right-aligned).
    public let inset: Double
    /// Whether the text was cut and ends in an ellipsis.
    public let isEllipsized: Bool
    /// Characters no font on the system has a glyph for (drawn as boxes): 0 when every script is covered.
    public let unknownGlyphs: Int
    /// Lines drawn.
    public let lineCount: Int
    /// Distance from the top of the box to the first line's baseline.
    public let baseline: Double
    /// The text as given.
    public let text: String

    init(takingOwnershipOf layout: OpaquePointer, text: String) {
        self.layout = layout
        self.text = text
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let scale = Double(PANGO_SCALE)
        size = Size(width: Double(logical.width) / scale, height: Double(logical.height) / scale)
        inset = Double(logical.x) / scale
        isEllipsized = pango_layout_is_ellipsized(layout) != 0
        unknownGlyphs = Int(pango_layout_get_unknown_glyphs_count(layout))
        lineCount = Int(pango_layout_get_line_count(layout))
        baseline = Double(pango_layout_get_baseline(layout)) / scale
    }

    deinit { passwright_g_object_unref(UnsafeMutableRawPointer(layout)) }
}
