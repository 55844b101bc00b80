import Foundation

extension JSONModel {
    /// Reads as much of a whole document (`pass.json`, `order.json`) as its types allow: each value that
    /// does not decode is left at its default and reported as an error issue (rule
    /// ``PassDecodingError/issueRule``). Throws only when the document is not a JSON object.
    package static func decodeDocumentLeniently(_ json: JSONValue) throws(PassDecodingError) -> (Self, [ValidationIssue]) {
        var issues: [ValidationIssue] = []
        let model = try Self(json: json, at: .root, issues: &issues)
        return (model, issues)
    }

    /// Reads a whole document, throwing every decoding problem at once; the returned issues are the
    /// warnings found on the way (unknown keys).
    package static func decodeDocument(_ json: JSONValue) throws(PassDecodingError) -> (Self, [ValidationIssue]) {
        let (model, issues) = try decodeDocumentLeniently(json)
        let problems = issues.filter { $0.rule == PassDecodingError.issueRule }
        guard problems.isEmpty else {
            throw .combining(problems.map { .invalidValue(path: $0.path, message: $0.message) })
        }
        return (model, issues)
    }

    /// The document's bytes in Passwright's canonical form (keys sorted, `/` unescaped, integral
    /// numbers as integers), written straight to bytes.
    package func encodedDocument() -> Data {
        var writer = JSONWriter(capacity: 2048)
        write(to: &writer)
        return writer.data
    }
}
