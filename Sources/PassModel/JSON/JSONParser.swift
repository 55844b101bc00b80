import Foundation

/// A strict RFC 8259 parser over raw bytes, with a nesting limit.
///
/// Written by hand rather than with `JSONSerialization` so integers stay distinguishable, errors carry
/// a byte offset, and deeply nested input fails cleanly instead of overflowing the stack.
struct JSONParser {
    let maximumDepth: Int
    private var offset = 0

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    mutating func parse(_ data: Data) throws(PassDecodingError) -> JSONValue {
        var parser = self
        let result: Result<JSONValue, PassDecodingError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            do throws(PassDecodingError) {
                parser.skipWhitespace(bytes)
                // Tolerate a UTF-8 BOM on input; Passwright never writes one.
                if bytes.count >= parser.offset + 3, bytes[parser.offset] == 0xEF,
                   bytes[parser.offset + 1] == 0xBB, bytes[parser.offset + 2] == 0xBF {
                    parser.offset += 3
                    parser.skipWhitespace(bytes)
                }
                let value = try parser.value(bytes, depth: 0)
                parser.skipWhitespace(bytes)
                guard parser.offset == bytes.count else {
                    throw parser.failure("unexpected content after the JSON value")
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func failure(_ message: String) -> PassDecodingError {
        .invalidJSON(offset: offset, message: message)
    }

    private mutating func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private mutating func value(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(PassDecodingError) -> JSONValue {
        guard offset < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            guard depth < maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
            return .object(try object(bytes, depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth < maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
            return .array(try array(bytes, depth: depth + 1))
        case UInt8(ascii: "\""):
            return .string(try string(bytes))
        case UInt8(ascii: "t"):
            try literal("true", bytes)
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false", bytes)
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null", bytes)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number(bytes))
        default:
            throw failure("unexpected character '\(Character(Unicode.Scalar(bytes[offset])))'")
        }
    }

    private mutating func literal(_ word: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) throws(PassDecodingError) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count,
              memcmp(bytes.baseAddress! + offset, word.utf8Start, count) == 0 else {
            throw failure("invalid literal, expected \(word)")
        }
        offset += count
    }

    private mutating func object(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(PassDecodingError) -> JSONObject {
        offset += 1
        var object = JSONObject()
        // Small objects check repeated keys by scanning; a set only pays off for large ones.
        var seen: Set<String>? = nil
        skipWhitespace(bytes)
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return object
        }
        while true {
            skipWhitespace(bytes)
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw failure("expected a string key")
            }
            let key = try string(bytes)
            skipWhitespace(bytes)
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            offset += 1
            skipWhitespace(bytes)
            let member = try value(bytes, depth: depth)
            if seen == nil, object.count >= 16 { seen = Set(object.keys) }
            let isNew = seen != nil ? seen!.insert(key).inserted : object[key] == nil
            if isNew {
                object.appendUnchecked(key, member)
            } else {
                object[key] = member  // a repeated key keeps its last value
            }
            skipWhitespace(bytes)
            guard offset < bytes.count else { throw failure("unterminated object") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; return object
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(PassDecodingError) -> [JSONValue] {
        offset += 1
        var items: [JSONValue] = []
        skipWhitespace(bytes)
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return items
        }
        while true {
            skipWhitespace(bytes)
            items.append(try value(bytes, depth: depth))
            skipWhitespace(bytes)
            guard offset < bytes.count else { throw failure("unterminated array") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; return items
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func number(_ bytes: UnsafeBufferPointer<UInt8>) throws(PassDecodingError) -> Double {
        let start = offset
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.offset
            while parser.offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[parser.offset]) {
                parser.offset += 1
            }
            return parser.offset - first
        }
        var negative = false
        if bytes[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        let integerStart = offset
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw failure("invalid number") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw failure("invalid number: leading zero")
        }
        var isInteger = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            isInteger = false
            guard digits(&self) > 0 else { throw failure("invalid number: no digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            isInteger = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard digits(&self) > 0 else { throw failure("invalid number: no digits in exponent") }
        }
        if isInteger, integerDigits <= 15 {
            var value = 0
            for index in integerStart..<offset { value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        return value
    }

    private mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) throws(PassDecodingError) -> String {
        offset += 1
        let start = offset
        var isASCII = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<offset])
                let text = isASCII ? String(decoding: run, as: UTF8.self) : try utf8(run, at: start)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("unescaped control character in string") }
            isASCII = isASCII && byte < 0x80
            offset += 1
        }
        // Slow path: the string has escapes.
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try buffer.withUnsafeBufferPointer { (pointer) throws(PassDecodingError) in
                    try utf8(pointer, at: start)
                }
                offset += 1
                return text
            case UInt8(ascii: "\\"):
                offset += 1
                guard offset < bytes.count else { throw failure("unterminated string") }
                let escaped = bytes[offset]
                offset += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(bytes)
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                              bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw failure("unpaired surrogate in \\u escape")
                        }
                        offset += 2
                        let low = try hex4(bytes)
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("unpaired surrogate in \\u escape")
                    }
                    buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default:
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(escaped)))'")
                }
            default:
                guard byte >= 0x20 else { throw failure("unescaped control character in string") }
                buffer.append(byte)
                offset += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4(_ bytes: UnsafeBufferPointer<UInt8>) throws(PassDecodingError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw failure("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private func utf8(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(PassDecodingError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidJSON(offset: start, message: "string is not valid UTF-8")
        }
        return text
    }
}
