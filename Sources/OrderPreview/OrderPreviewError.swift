/// Why an order could not be drawn.
public enum OrderPreviewError: Error, Sendable, CustomStringConvertible {
    /// An option outside what it may be: names the option and its range.
    case invalidOption(name: String, message: String)
    /// Drawing failed (Cairo or the PNG encoder); `message` says how.
    case drawing(String)

    public var description: String {
        switch self {
        case .invalidOption(let name, let message): "\(name): \(message)"
        case .drawing(let message): "cannot draw the order: \(message)"
        }
    }
}
