import Foundation
import PassModel

extension Order {
    /// Reads an order from a JSON tree. Type errors throw, every one of them with its JSON path
    /// (``OrderDecodingError/problems``); the returned issues are warnings found on the way (unknown
    /// keys, with paths). Call ``validate()`` for the rules a well-typed order can still break.
    public static func decode(_ json: JSONValue) throws(OrderDecodingError) -> (Order, [ValidationIssue]) {
        try decodeDocument(json)
    }

    /// Reads as much of an order as its types allow: each value that does not decode is left at its
    /// default and reported as an error issue (rule `PassDecodingError.issueRule`, shared with passes),
    /// so a caller can still validate the rest and report every problem at once. Throws only when the
    /// document is not a JSON object.
    public static func decodeAll(_ json: JSONValue) throws(OrderDecodingError) -> (Order, [ValidationIssue]) {
        try decodeDocumentLeniently(json)
    }

    /// Reads an order from `order.json` bytes; see the `JSONValue` overload.
    public static func decode(_ data: Data) throws(OrderDecodingError) -> (Order, [ValidationIssue]) {
        try decode(try JSONValue.parse(data))
    }

    /// The `order.json` bytes: UTF-8 without BOM, keys sorted, dates as `yyyy-MM-dd'T'HH:mm:ssXXX`,
    /// amounts as JSON numbers, `/` unescaped. Deterministic, so equal orders give identical bytes
    /// (and identical SHA-256 hashes in the package manifest).
    public func encoded() -> Data {
        encodedDocument()
    }

    /// The order as a JSON tree, for comparing with the tree it was read from or editing in templates.
    public func jsonValue() -> JSONValue {
        guard let value = try? JSONValue.parse(encoded()) else {
            preconditionFailure("OrderModel always writes valid JSON")
        }
        return value
    }
}
