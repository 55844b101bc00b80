import Foundation

extension Pass {
    /// Reads a pass from a JSON tree (a rendered template). Type errors throw with the JSON path of
    /// the first one; the returned issues are warnings found on the way (unknown keys, with paths).
    /// Call ``validate()`` for the rules a well-typed pass can still break.
    public static func decode(_ json: JSONValue) throws(PassDecodingError) -> (Pass, [ValidationIssue]) {
        var issues: [ValidationIssue] = []
        let pass = try Pass(json: json, at: .root, issues: &issues)
        return (pass, issues)
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
        var writer = JSONWriter(capacity: 2048)
        write(to: &writer)
        return writer.data
    }
}
