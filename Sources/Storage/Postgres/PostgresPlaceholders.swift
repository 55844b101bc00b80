/// Rewrites the `?` placeholders of a statement into PostgreSQL's `$1, $2, …`.
///
/// A `?` inside a string literal (`'…'`, `E'…'`), a quoted identifier, a dollar-quoted body or a
/// comment is text, not a placeholder, and is left alone. PostgreSQL operators spelled with `?`
/// (jsonb `?`, `?|`, `?&`) cannot be written through this API; use `jsonb_exists` and friends.
enum PostgresPlaceholders {
    /// The rewritten text and the number of placeholders found.
    static func rewrite(_ text: String) -> (text: String, count: Int) {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 8)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            let end: Int
            switch byte {
            case UInt8(ascii: "'"):
                end = endOfQuoted(bytes, from: index, quote: byte, backslashEscapes: isEscapeString(bytes, quoteAt: index))
            case UInt8(ascii: "\""):
                end = endOfQuoted(bytes, from: index, quote: byte, backslashEscapes: false)
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                end = endOfBlockComment(bytes, from: index)
            case UInt8(ascii: "$"):
                end = endOfDollarQuoted(bytes, from: index) ?? index + 1
            case UInt8(ascii: "?"):
                count += 1
                output.append(contentsOf: "$\(count)".utf8)
                index += 1
                continue
            default:
                end = index + 1
            }
            output.append(contentsOf: bytes[index..<end])
            index = end
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    /// `E'…'` (a lone `E` before the quote) takes backslash escapes such as `\'`.
    private static func isEscapeString(_ bytes: [UInt8], quoteAt index: Int) -> Bool {
        guard index >= 1, bytes[index - 1] | 0x20 == UInt8(ascii: "e") else { return false }
        return index == 1 || !isIdentifier(bytes[index - 2])
    }

    /// The index after the closing quote; a doubled quote is an escaped quote.
    private static func endOfQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
        var index = start + 1
        while index < bytes.count {
            if backslashEscapes && bytes[index] == UInt8(ascii: "\\") {
                index += 2
            } else if bytes[index] == quote {
                if index + 1 < bytes.count && bytes[index + 1] == quote {
                    index += 2
                } else {
                    return index + 1
                }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// The index after a `/* … */` comment; PostgreSQL nests them.
    private static func endOfBlockComment(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// The index after a `$tag$ … $tag$` body, or `nil` when the `$` opens no dollar quote
    /// (`$1`, or a `$` inside an identifier).
    private static func endOfDollarQuoted(_ bytes: [UInt8], from start: Int) -> Int? {
        if start > 0 && (isIdentifier(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: "$")) { return nil }
        var index = start + 1
        if index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") { return nil }
        while index < bytes.count && isIdentifier(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "$") else { return nil }
        let tag = bytes[start...index]
        var search = index + 1
        while search + tag.count <= bytes.count {
            if bytes[search..<search + tag.count].elementsEqual(tag) { return search + tag.count }
            search += 1
        }
        return bytes.count
    }
}

extension SQL {
    /// The text PostgreSQL prepares for this statement, with `$1, $2, …` for its placeholders: what
    /// `PREPARE … AS` takes, for a test that asks PostgreSQL for a prepared statement's plan.
    public var postgresText: String { PostgresPlaceholders.rewrite(text).text }
}
