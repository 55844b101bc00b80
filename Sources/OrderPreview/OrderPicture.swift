import Foundation

/// A drawn order: the PNG and its size in pixels.
public struct OrderPicture: Sendable {
    public let png: Data
    public let width: Int
    public let height: Int
}
