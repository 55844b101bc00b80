import Foundation

extension Pass {
    /// Reads a pass from a JSON tree (a rendered template). Type errors throw, every one of them with
    /// its JSON path (``PassDecodingError/problems``); the returned issues are warnings found on the
    /// way (unknown keys, with paths). Call ``validate()`` for the rules a well-typed pass can still break.
    public static func decode(_ json: JSONValue) throws(PassDecodingError) -> (Pass, [ValidationIssue]) {
        try decodeDocument(json)
    }

    /// Reads as much of a pass as its types allow: each value that does not decode is left at its
    /// default and reported as an error issue (rule ``PassDecodingError/issueRule``), so a caller can
    /// still validate the rest and report every problem at once. Throws only when the document is
    /// not a JSON object.
    public static func decodeAll(_ json: JSONValue) throws(PassDecodingError) -> (Pass, [ValidationIssue]) {
        try decodeDocumentLeniently(json)
    }

    /// Reads a pass from `pass.json` bytes; see the `JSONValue` overload.
    public static func decode(_ data: Data) throws(PassDecodingError) -> (Pass, [ValidationIssue]) {
        try decode(try JSONValue.parse(data))
    }

    /// The `pass.json` bytes in Apple's formats: UTF-8 without BOM, keys sorted, colours as
    /// `rgb(r, g, b)`, dates as `yyyy-MM-dd'T'HH:mm:ssXXX`, integral numbers as integers, `/`
    /// unescaped. Deterministic, so equal passes give identical bytes (and manifest hashes).
    /// Written straight to bytes: this runs once per pass in batch builds.
    public func encoded() -> Data {
        encodedDocument()
    }
}
