/// Why an order's picture could not be made; each case says what is wrong.
public enum OrderPreviewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An option is outside what the previewer draws (`name` is the parameter).
    case invalidOption(name: String, message: String)
    /// Drawing or encoding failed (Cairo out of memory, a picture beyond the canvas limit).
    case drawing(String)

    public var description: String {
        switch self {
        case .invalidOption(let name, let message): return "\(name): \(message)"
        case .drawing(let message): return "cannot draw the order: \(message)"
        }
    }
}
