/// How an order's picture is drawn.
public struct OrderPreviewOptions: Sendable, Hashable {
    /// Pixels per point: 1, 2 or 3, the scales of Wallet's screens.
    public var scale: Int
    /// Draws the dark appearance (black background, light text) instead of the light one.
    public var dark: Bool

    /// The scales Wallet's screens have.
    public static let scales = 1...3

    public init(scale: Int = 2, dark: Bool = false) {
        self.scale = scale
        self.dark = dark
    }
}
