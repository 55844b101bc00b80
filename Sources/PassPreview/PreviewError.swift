/// Why a preview could not be made. Each case says what is wrong and where.
public enum PreviewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is not a pass or template the previewer can read (named file, JSON path).
    case unreadable(source: String, problems: [String])
    /// An option is out of range.
    case invalidOption(name: String, message: String)
    /// Drawing failed (Cairo ran out of memory, a size beyond the canvas limit).
    case drawing(String)

    public var description: String {
        switch self {
        case .unreadable(let source, let problems):
            return "\(source): cannot preview: " + problems.joined(separator: "; ")
        case .invalidOption(let name, let message): return "\(name): \(message)"
        case .drawing(let message): return "cannot draw the preview: \(message)"
        }
    }
}
