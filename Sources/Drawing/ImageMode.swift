/// How an image fills the rectangle it is drawn in.
public enum ImageMode: Sendable, Hashable {
    /// Scaled to fit inside, keeping its aspect ratio, anchored at the rectangle's leading edge
    /// (logos) or centred.
    case fit(centred: Bool)
    /// Scaled to cover the rectangle, keeping its aspect ratio; the overflow is cut (strips, backgrounds).
    case fill
}
