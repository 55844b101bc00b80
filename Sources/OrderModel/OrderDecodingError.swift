import PassModel

/// Why an `order.json` could not be read, and where: every problem at once, each with its JSON path
/// (`lineItems[1].price.amount`) and what was expected.
public enum OrderDecodingError: ProblemCollection, CustomStringConvertible, Hashable {
    /// The bytes are not JSON: `offset` is the byte where parsing stopped.
    case invalidJSON(offset: Int, message: String)
    /// A value at `path` has the wrong type, shape or syntax, or a required key is missing.
    case invalidValue(path: String, message: String)
    /// Several values are wrong: every one of them, in document order.
    case several([OrderDecodingError])

    /// The errors of ``several(_:)``, for ``ProblemCollection``.
    public var severalProblems: [OrderDecodingError]? {
        if case .several(let errors) = self { return errors }
        return nil
    }

    /// The JSON path of the problem (`""` for malformed bytes or the document itself).
    public var path: String {
        switch self {
        case .invalidJSON: return ""
        case .invalidValue(let path, _): return path
        case .several(let errors): return errors.first?.path ?? ""
        }
    }

    /// The human-readable reason, without the path.
    public var message: String {
        switch self {
        case .invalidJSON(let offset, let message): return "invalid JSON at byte \(offset): \(message)"
        case .invalidValue(_, let message): return message
        case .several(let errors): return errors.map(\.description).joined(separator: "; ")
        }
    }

    public var description: String {
        if case .several(let errors) = self { return errors.map(\.description).joined(separator: "\n") }
        return path.isEmpty ? message : "\(path): \(message)"
    }

    /// The same problems in OrderModel's terms; the shared JSON reader reports them as pass errors.
    init(_ error: PassDecodingError) {
        switch error {
        case .invalidJSON(let offset, let message): self = .invalidJSON(offset: offset, message: message)
        case .invalidValue(let path, let message): self = .invalidValue(path: path, message: message)
        case .several(let errors): self = .several(errors.map(OrderDecodingError.init))
        }
    }
}
