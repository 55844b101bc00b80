import Drawing
import Foundation

/// A finished preview: the picture and where everything in it was put, so callers (tests, lint,
/// the console) can check what was drawn without reading pixels.
public struct RenderedPreview: Sendable {
    public let data: Data
    public let format: PreviewOptions.Format
    /// The picture's size in pixels.
    public let pixelWidth: Int, pixelHeight: Int
    /// The card's rectangle(s) in points (one per side drawn).
    public let cards: [Rect]
    public let texts: [PlacedText]
    public let barcode: PlacedBarcode?
    /// What could not be drawn (an unreadable image, a barcode message too long for its format),
    /// each naming the file or key. The picture is still made without it.
    public let problems: [String]
    public let scale: Int
}

/// One piece of text as drawn.
public struct PlacedText: Sendable, Hashable {
    /// Where it belongs: `header.tier.label`, `primary.points.value`, `back.support.value`, `logoText`, `barcode.altText`.
    public let role: String
    /// The full text (before any ellipsis).
    public let text: String
    /// Its box in points, in the whole picture.
    public let rect: Rect
    /// The rectangle it had to stay within.
    public let bounds: Rect
    public let isEllipsized: Bool
    /// Characters drawn without a glyph (boxes): 0 when the fonts cover the script.
    public let unknownGlyphs: Int
    public let side: PreviewOptions.Side
}

/// The barcode as drawn.
public struct PlacedBarcode: Sendable, Hashable {
    public let message: String
    public let format: String
    /// The white plate behind it, in points.
    public let rect: Rect
}
