/// How a piece of text is set: the font and how it fits its box.
public struct TextStyle: Sendable, Hashable {
    /// Weights the pass layouts use.
    public enum Weight: Sendable, Hashable { case light, regular, medium, semibold, bold }
    /// Horizontal alignment inside the box; `natural` follows the text's direction (right for Arabic).
    public enum Alignment: Sendable, Hashable { case natural, left, centre, right }

    /// Size in points.
    public var size: Double
    public var weight: Weight
    public var alignment: Alignment
    /// The most lines the text may take; past it the last line ends in an ellipsis.
    public var maximumLines: Int

    public init(size: Double, weight: Weight = .regular, alignment: Alignment = .natural, maximumLines: Int = 1) {
        self.size = size
        self.weight = weight
        self.alignment = alignment
        self.maximumLines = maximumLines
    }

    /// The font families, in order: Inter (close to Apple's SF in metrics and feel), then Noto for the
    /// scripts Inter lacks (Arabic, Hebrew, CJK, …); fontconfig falls back further for anything else.
    public static let families = "Inter, Noto Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans CJK JP, DejaVu Sans"
}

/// One run of text with its own colour and underline: how a link inside a back field is drawn.
public struct TextRun: Sendable, Hashable {
    public var text: String
    /// `nil` draws the run in the block's colour.
    public var color: RGBA?
    public var underlined: Bool
    public init(_ text: String, color: RGBA? = nil, underlined: Bool = false) {
        self.text = text
        self.color = color
        self.underlined = underlined
    }
}
