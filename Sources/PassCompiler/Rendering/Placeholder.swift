import Foundation

/// One `{{path}}` in a template string: a dotted path into the record (`member.name`, `items.0.sku`).
struct Placeholder: Sendable, Hashable {
    let path: String

    /// A template string split into literal text and placeholders.
    enum Piece: Sendable, Hashable {
        case text(String)
        case placeholder(Placeholder)
    }

    /// Splits `string` into pieces; `nil` when it has no `{{`, which is the common case and costs one scan.
    /// Throws for an unclosed `{{` or an empty `{{ }}`, with the message saying which.
    static func pieces(of string: String) throws(PlaceholderSyntaxError) -> [Piece]? {
        guard string.contains("{{") else { return nil }
        var pieces: [Piece] = []
        var rest = Substring(string)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: "}}") else {
                throw PlaceholderSyntaxError(message: "'{{' is never closed with '}}'")
            }
            let path = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            guard !path.isEmpty, !path.contains("{"), !path.contains("}") else {
                throw PlaceholderSyntaxError(message: "'{{\(afterOpen[..<close.lowerBound])}}' is not a placeholder; write {{name}} or {{group.name}}")
            }
            pieces.append(.placeholder(Placeholder(path: path)))
            rest = afterOpen[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }
}

/// A malformed placeholder in a template string.
struct PlaceholderSyntaxError: Error {
    let message: String
}
