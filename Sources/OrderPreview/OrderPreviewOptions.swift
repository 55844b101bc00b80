/// How an order is drawn: the pixel density, and the light or dark appearance of Wallet's order
/// detail screen.
public struct OrderPreviewOptions: Sendable, Hashable {
    /// Pixels per point, 1…3 (iPhones draw at @2x and @3x).
    public var scale: Int
    public var dark: Bool

    public init(scale: Int = 2, dark: Bool = false) {
        self.scale = scale
        self.dark = dark
    }

    /// The scales a picture can be drawn at.
    public static let scales = 1...3
}
