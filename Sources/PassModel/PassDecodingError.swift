/// Why a `pass.json` (or any JSON handed to PassModel) could not be read, and where.
///
/// Paths use the form `storeCard.primaryFields[0].value` so a template author can find the spot;
/// messages say what was expected and what was found.
public enum PassDecodingError: ProblemCollection, CustomStringConvertible, Hashable {
    /// The bytes are not JSON: `offset` is the byte where parsing stopped.
    case invalidJSON(offset: Int, message: String)
    /// The JSON is well formed but a value at `path` has the wrong type, shape or syntax, or a
    /// required key is missing.
    case invalidValue(path: String, message: String)
    /// Several values are wrong: every one of them, in document order, so one run reports them all.
    case several([PassDecodingError])

    /// The errors of ``several(_:)``, for ``ProblemCollection``.
    public var severalProblems: [PassDecodingError]? {
        if case .several(let errors) = self { return errors }
        return nil
    }

    /// Whether a validation issue at `path` only follows from values that did not decode (at `path`,
    /// inside it, or around it, like an entry whose date did not decode): reported once, by decoding.
    public static func follows(_ path: String, fromAnyOf undecoded: [String]) -> Bool {
        undecoded.contains { failed in
            path == failed || path.hasPrefix(failed + ".") || path.hasPrefix(failed + "[")
                || (!path.isEmpty && (failed.hasPrefix(path + ".") || failed.hasPrefix(path + "[")))
        }
    }

    /// The rule of the ``ValidationIssue`` a decoding problem becomes while decoding goes on.
    public static let issueRule = "pass.decoding"

    /// This problem as an error-severity issue, so decoding can record it and carry on.
    package var issue: ValidationIssue {
        ValidationIssue(severity: .error, path: path, rule: Self.issueRule, message: message)
    }

    /// The JSON path of the problem (`""` for malformed bytes, where no path exists).
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

    /// The problem for a value of the wrong type or syntax at `path`: what was expected, what was found.
    package static func mismatch(_ path: JSONPath, expected: String, found: JSONValue) -> PassDecodingError {
        .invalidValue(path: path.rendered, message: "expected \(expected), found \(found.phrase)")
    }
}
