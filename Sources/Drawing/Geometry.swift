/// A point in the canvas's own units (points; the canvas scales them to pixels).
public struct Point: Sendable, Hashable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A width and height in points.
public struct Size: Sendable, Hashable {
    public var width: Double, height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// An axis-aligned rectangle in points, origin top left.
public struct Rect: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// Whether `other` lies wholly inside (edges may touch); rounding slack of a hundredth of a point.
    public func contains(_ other: Rect) -> Bool {
        other.x >= x - 0.01 && other.y >= y - 0.01 && other.maxX <= maxX + 0.01 && other.maxY <= maxY + 0.01
    }

    /// Whether the two share any area.
    public func intersects(_ other: Rect) -> Bool {
        other.x < maxX && x < other.maxX && other.y < maxY && y < other.maxY
    }

    /// The rectangle moved in by `inset` on every side.
    public func insetBy(_ inset: Double) -> Rect {
        Rect(x: x + inset, y: y + inset, width: max(0, width - 2 * inset), height: max(0, height - 2 * inset))
    }
}

/// A colour with 8-bit channels, as `pass.json` writes them (`rgb(r, g, b)`).
public struct RGBA: Sendable, Hashable {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let white = RGBA(red: 255, green: 255, blue: 255)
    public static let black = RGBA(red: 0, green: 0, blue: 0)

    /// The same colour at `alpha` (0…1) opacity.
    public func withOpacity(_ opacity: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: UInt8(max(0, min(255, (opacity * 255).rounded()))))
    }
}
