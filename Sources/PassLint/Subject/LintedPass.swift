import Foundation
import PassModel

/// `pass.json` as the rules see it: the typed pass, the tree as written (to quote Before values), and
/// which paths hold placeholders — values not known until a record fills them.
///
/// A template is linted without a record by giving each placeholder a stand-in of the type its key
/// needs (a date where `dateStyle` is set, a number for `| number` or `numberStyle`, otherwise the
/// first of text, date, number, colour, list, boolean that decodes). Stand-ins only make the pass
/// decodable: every rule that judges a value (length, contrast, dates in the past, text that looks
/// like a date) skips placeholder paths, since the record decides them. Rendering with a record
/// (`--record`, `--records`) checks those values too.
struct LintedPass: Sendable {
    let pass: Pass
    /// The tree as written: placeholders as their `{{…}}` text.
    let source: JSONValue
    /// Paths whose value comes from a placeholder (exactly or inside text).
    let unknown: Set<String>
    /// Unknown-key warnings found while decoding.
    let decodingIssues: [ValidationIssue]
    /// Values that did not decode (each is a `pass.decoding` error); the rules judge the rest.
    var undecoded: [LintFailure.Problem] = []

    /// Whether `path` (or a container of it) did not decode: rules skip what decoding reported.
    func isUndecoded(_ path: String) -> Bool {
        PassDecodingError.follows(path, fromAnyOf: undecoded.map(\.path))
    }

    /// Whether `path` (or a container of it) comes from a placeholder.
    func isUnknown(_ path: String) -> Bool {
        if unknown.contains(path) { return true }
        return unknown.contains { path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }
    }

    /// The value at `path` as written.
    func value(at path: String) -> JSONValue? {
        JSONTree.value(at: path, in: source)
    }

    /// `"key": value` as written at `path`, or `—` when absent.
    func quote(_ path: String) -> String {
        guard let key = JSONTree.lastKey(path), let value = value(at: path) else { return Finding.missing }
        return JSONTree.member(key, value)
    }

    /// A rendered pass (every placeholder filled); a decoding failure comes back as the error finding.
    static func rendered(_ tree: JSONValue) -> Result<LintedPass, LintFailure> {
        decode(source: tree, standIns: tree, unknown: [], wholePlaceholders: [:], date: .null)
    }

    /// A template's `pass.json` with placeholders, completed the way the compiler completes it
    /// (a serial number, `webServiceURL` from the options, a token when there is a web service).
    static func template(_ source: JSONValue, webServiceURL: String?, now: Date) -> Result<LintedPass, LintFailure> {
        guard case .object(var object) = source else {
            return .failure(LintFailure(path: "", message: "pass.json must be a JSON object"))
        }
        if object["serialNumber"] == nil { object["serialNumber"] = .string("{{serialNumber}}") }
        if let webServiceURL { object["webServiceURL"] = .string(webServiceURL) }
        if object["webServiceURL"] != nil, object["authenticationToken"] == nil {
            object["authenticationToken"] = .string("{{authenticationToken}}")
        }
        let completed = JSONValue.object(object)
        var unknown: Set<String> = []
        var whole: [String: String] = [:]
        var standIns = completed
        collect(completed, path: "", unknown: &unknown, whole: &whole)
        let date = JSONValue.string(W3CDate(date: now.addingTimeInterval(30 * 86_400)).description)
        for (path, text) in whole {
            if let hinted = hint(for: path, text: text, in: completed, date: date) { JSONTree.set(hinted, at: path, in: &standIns) }
        }
        return decode(source: completed, standIns: standIns, unknown: unknown, wholePlaceholders: whole, date: date)
    }

    private static func decode(source: JSONValue, standIns: JSONValue, unknown: Set<String>, wholePlaceholders: [String: String], date: JSONValue) -> Result<LintedPass, LintFailure> {
        var tree = standIns
        var tried: [String: Int] = [:]
        let candidates: [JSONValue] = [
            date, .number(1), .string("rgb(128, 128, 128)"), .array([.string("x")]), .bool(true), .object([:]),
        ]
        while true {
            do {
                let (pass, issues) = try Pass.decode(tree)
                return .success(LintedPass(pass: pass, source: source, unknown: unknown, decodingIssues: issues))
            } catch {
                // A whole placeholder that does not decode gets the next stand-in a record could give;
                // every other problem is reported, all of them at once.
                var failures: [LintFailure.Problem] = []
                var substituted = false
                for problem in error.problems {
                    guard let text = wholePlaceholders[problem.path] else {
                        failures.append(LintFailure.Problem(path: problem.path, message: problem.message))
                        continue
                    }
                    let next = tried[problem.path, default: 0]
                    guard next < candidates.count else {
                        failures.append(LintFailure.Problem(path: problem.path, message: "no value a record could give \(text) decodes here: \(problem.message)"))
                        continue
                    }
                    tried[problem.path] = next + 1
                    let candidate = next == 3 ? JSONValue.array([.string(text)]) : candidates[next]
                    JSONTree.set(candidate, at: problem.path, in: &tree)
                    substituted = true
                }
                if !substituted {
                    // What does not decode is reported; every rule still runs on the rest.
                    guard let (pass, issues) = try? Pass.decodeAll(tree) else { return .failure(LintFailure(problems: failures)) }
                    var subject = LintedPass(pass: pass, source: source, unknown: unknown,
                                             decodingIssues: issues.filter { $0.rule != PassDecodingError.issueRule })
                    subject.undecoded = failures
                    return .success(subject)
                }
            }
        }
    }

    /// Finds placeholder strings; `whole` gets those that are exactly one placeholder (they take the
    /// record value's type), the rest are text with a placeholder inside.
    private static func collect(_ value: JSONValue, path: String, unknown: inout Set<String>, whole: inout [String: String]) {
        switch value {
        case .string(let text) where text.contains("{{"):
            unknown.insert(path)
            if text.hasPrefix("{{"), text.hasSuffix("}}"), text.components(separatedBy: "{{").count == 2 {
                whole[path] = text
            }
        case .object(let object):
            for (key, member) in object {
                collect(member, path: path.isEmpty ? key : "\(path).\(key)", unknown: &unknown, whole: &whole)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(element, path: "\(path)[\(index)]", unknown: &unknown, whole: &whole)
            }
        default:
            break
        }
    }

    /// The stand-in a field's own keys ask for: `| number`, `numberStyle`/`currencyCode` → a number;
    /// `dateStyle`/`timeStyle` → a date. `nil` keeps the placeholder text.
    private static func hint(for path: String, text: String, in root: JSONValue, date: JSONValue) -> JSONValue? {
        let conversion = text.dropFirst(2).dropLast(2).split(separator: "|").dropFirst().first?.trimmingCharacters(in: .whitespaces)
        if conversion == "number" { return .number(1) }
        if conversion == "string" { return nil }
        guard ["value", "attributedValue"].contains(JSONTree.lastKey(path)),
              case .object(let field)? = JSONTree.value(at: JSONTree.parent(path), in: root) else { return nil }
        if field["dateStyle"] != nil || field["timeStyle"] != nil { return date }
        if field["numberStyle"] != nil || field["currencyCode"] != nil { return .number(1) }
        return nil
    }
}

/// Why a pass could not be read at all: every decoding error, each with its JSON path.
struct LintFailure: Error, Sendable {
    struct Problem: Sendable {
        let path: String
        let message: String
    }

    let problems: [Problem]

    init(problems: [Problem]) { self.problems = problems }

    init(path: String, message: String) { problems = [Problem(path: path, message: message)] }

    init(_ error: PassDecodingError) {
        problems = error.problems.map { Problem(path: $0.path, message: $0.message) }
    }
}
