import Foundation
import PassModel

/// Everything that can stop a template from becoming a signed pass, each case saying where: the
/// template file, the JSON path, the record (input file and line), or the archive entry.
public enum PassCompilerError: ProblemCollection, CustomStringConvertible, Sendable {
    /// The template folder is missing or unreadable.
    case templateNotFound(path: String)
    /// A file of the template cannot be used (not a PNG, wrong scale, unreadable, …).
    case templateFile(file: String, message: String)
    /// `pass.json` of the template is not JSON, or a placeholder in it is malformed.
    case invalidTemplate(file: String, path: String, message: String)
    /// A `pass.strings` file does not parse.
    case invalidStrings(file: String, line: Int, message: String)
    /// A record lacks a value a placeholder needs.
    case missingValue(placeholder: String, path: String, record: String)
    /// A record cannot be read (bad CSV row, bad JSON line, a value of the wrong kind).
    case invalidRecord(record: String, message: String)
    /// The rendered `pass.json` does not decode into a pass.
    case undecodablePass(record: String, error: PassDecodingError)
    /// The rendered pass breaks rules Wallet enforces; every error is listed.
    case invalidPass(record: String, issues: [ValidationIssue])
    /// The signing identity does not fit the pass.
    case identityMismatch(message: String)
    /// Signing or archiving failed underneath.
    case packaging(message: String)
    /// A `.pkpass` or `.pkpasses` read back is malformed.
    case invalidArchive(entry: String, message: String)
    /// An output file could not be written.
    case output(path: String, message: String)
    /// An output file exists and was not to be replaced.
    case outputExists(path: String)
    /// Several problems at once (every missing placeholder of a record, every bad image of a
    /// template), so one run reports them all.
    case several([PassCompilerError])

    /// The errors of ``several(_:)``, for ``ProblemCollection``.
    public var severalProblems: [PassCompilerError]? {
        if case .several(let errors) = self { return errors }
        return nil
    }

    public var description: String {
        switch self {
        case .templateNotFound(let path):
            return "template folder '\(path)' not found or has no pass.json"
        case .templateFile(let file, let message):
            return "\(file): \(message)"
        case .invalidTemplate(let file, let path, let message):
            return path.isEmpty ? "\(file): \(message)" : "\(file) at \(path): \(message)"
        case .invalidStrings(let file, let line, let message):
            return "\(file) line \(line): \(message)"
        case .missingValue(let placeholder, let path, let record):
            return "\(record): no value for placeholder {{\(placeholder)}} used at pass.json \(path)"
        case .invalidRecord(let record, let message):
            return "\(record): \(message)"
        case .undecodablePass(let record, let error):
            return "\(record): pass.json \(error)"
        case .invalidPass(let record, let issues):
            let errors = issues.filter { $0.severity == .error }
            return "\(record): the pass would be refused by Wallet (\(errors.count) error\(errors.count == 1 ? "" : "s")):\n"
                + errors.map { "  - \($0)" }.joined(separator: "\n")
        case .identityMismatch(let message):
            return message
        case .packaging(let message):
            return message
        case .invalidArchive(let entry, let message):
            return "\(entry): \(message)"
        case .output(let path, let message):
            return "cannot write \(path): \(message)"
        case .outputExists(let path):
            return "\(path) already exists"
        case .several(let errors):
            return errors.map(\.description).joined(separator: "\n")
        }
    }
}
