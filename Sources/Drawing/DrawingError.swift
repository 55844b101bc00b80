/// Why a picture could not be drawn or an image could not be read.
public enum DrawingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An image's bytes are not a PNG Cairo can decode (or are too large to decode safely).
    case unreadableImage(source: String, reason: String)
    /// Cairo refused an operation (out of memory, an invalid size).
    case cairo(operation: String, status: String)

    public var description: String {
        switch self {
        case .unreadableImage(let source, let reason): return "\(source): cannot read the image: \(reason)"
        case .cairo(let operation, let status): return "cannot draw (\(operation)): \(status)"
        }
    }
}
