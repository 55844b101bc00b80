import Foundation

/// One `{{path}}` in a template string: a dotted path into the record (`member.name`, `items.0.sku`),
/// optionally converted: `{{points | number}}` turns CSV text such as `"1200"` into the number Wallet
/// needs for `numberStyle` or `currencyCode`; `{{code | string}}` keeps a JSON number as text.
struct Placeholder: Sendable, Hashable {
    /// A conversion applied to the record's value.
    enum Conversion: String, Sendable, Hashable {
        case number
        case string
    }

    let path: String
    let conversion: Conversion?

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
            let inside = afterOpen[..<close.lowerBound].split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let path = inside[0]
            guard !path.isEmpty, !path.contains("{"), !path.contains("}"), inside.count <= 2 else {
                throw PlaceholderSyntaxError(message: "'{{\(afterOpen[..<close.lowerBound])}}' is not a placeholder; write {{name}}, {{group.name}} or {{name | number}}")
            }
            var conversion: Conversion?
            if inside.count == 2 {
                guard let known = Conversion(rawValue: inside[1]) else {
                    throw PlaceholderSyntaxError(message: "'\(inside[1])' in {{\(afterOpen[..<close.lowerBound])}} is not a conversion; use number or string")
                }
                conversion = known
            }
            pieces.append(.placeholder(Placeholder(path: path, conversion: conversion)))
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
