import PassCompiler
import PassModel

/// What is wrong with a record, as `errors` entries by JSON path (`{"path", "message", "rule"?}`), one
/// per path: how a `422` names every invalid value at once, and how a bulk job's results name them
/// for each failed line.
public enum InvalidValues {
    /// The entries of a compile error; a placeholder used in three places is one missing value.
    public static func entries(of error: PassCompilerError) -> [JSONValue] {
        var errors: [JSONValue] = []
        var indexByPath: [String: Int] = [:]
        for entry in error.problems.flatMap(problemEntries) {
            guard case .object(let object) = entry, case .string(let path)? = object["path"], !path.isEmpty else {
                errors.append(entry)
                continue
            }
            if let index = indexByPath[path], case .object(var first) = errors[index],
               case .string(let message)? = first["message"], case .string(let more)? = object["message"] {
                first["message"] = .string(message + "; " + more)
                errors[index] = .object(first)
            } else {
                indexByPath[path] = errors.count
                errors.append(entry)
            }
        }
        return errors
    }

    /// The entries of any error a record can fail with: a compile error's by path, anything else as one
    /// entry with its description.
    public static func entries(of error: any Error) -> [JSONValue] {
        switch error {
        case let error as PassCompilerError: entries(of: error)
        case ServiceError.invalid(let message): [.object(["path": .string(""), "message": .string(message)])]
        default: [.object(["path": .string(""), "message": .string("\(error)")])]
        }
    }

    /// The `errors` entries of one problem: path, message and (for rules) the rule.
    private static func problemEntries(_ error: PassCompilerError) -> [JSONValue] {
        switch error {
        case .invalidPass(_, let issues):
            return issues.filter { $0.severity == .error }.map {
                .object(["path": .string($0.path), "rule": .string($0.rule), "message": .string($0.message)])
            }
        case .undecodablePass(_, let decoding):
            return decoding.problems.map { .object(["path": .string($0.path), "message": .string($0.message)]) }
        case .missingValue(let placeholder, let path, _):
            return [.object(["path": .string("data.\(placeholder)"), "message": .string("required by the template at pass.json \(path)")])]
        default:
            return [.object(["path": .string(""), "message": .string("\(error)")])]
        }
    }
}
