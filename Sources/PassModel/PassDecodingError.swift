/// Why a `pass.json` (or any JSON handed to PassModel) could not be read, and where.
///
/// Paths use the form `storeCard.primaryFields[0].value` so a template author can find the spot;
/// messages say what was expected and what was found.
public enum PassDecodingError: Error, CustomStringConvertible, Hashable {
    /// The bytes are not JSON: `offset` is the byte where parsing stopped.
    case invalidJSON(offset: Int, message: String)
    /// The JSON is well formed but a value at `path` has the wrong type, shape or syntax, or a
    /// required key is missing.
    case invalidValue(path: String, message: String)

    /// The JSON path of the problem (`""` for malformed bytes, where no path exists).
    public var path: String {
        switch self {
        case .invalidJSON: return ""
        case .invalidValue(let path, _): return path
        }
    }

    /// The human-readable reason, without the path.
    public var message: String {
        switch self {
        case .invalidJSON(let offset, let message): return "invalid JSON at byte \(offset): \(message)"
        case .invalidValue(_, let message): return message
        }
    }

    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }

    static func mismatch(_ path: JSONPath, expected: String, found: JSONValue) -> PassDecodingError {
        .invalidValue(path: path.rendered, message: "expected \(expected), found \(found.phrase)")
    }
}
