import Foundation

/// A finished raster picture: 8-bit RGBA with straight alpha, rows top to bottom, ready for a PNG encoder.
public struct RGBAPixels: Sendable, Hashable {
    public let width: Int, height: Int
    public let data: Data

    public init(width: Int, height: Int, data: Data) {
        self.width = width
        self.height = height
        self.data = data
    }

    public func pixel(x: Int, y: Int) -> RGBA? {
        guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
        let offset = data.startIndex + (y * width + x) * 4
        return RGBA(red: data[offset], green: data[offset + 1], blue: data[offset + 2], alpha: data[offset + 3])
    }
}
