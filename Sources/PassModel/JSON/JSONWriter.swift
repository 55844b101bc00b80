import Foundation

/// Appends JSON straight to a byte buffer, the one serializer behind both ``JSONValue`` and
/// ``Pass/encoded()``, so encoding a pass never builds an intermediate tree.
///
/// Separators are derived from the last byte written (a `{` or `[` means "first member"), so callers
/// only say `key`, then a value. `package` so OrderModel writes `order.json` with the same bytes rules.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    package var data: Data { Data(bytes) }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")) }
    package mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")) }
    package mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// Writes `"key":`, preceded by a comma unless this is the object's first member.
    package mutating func key(_ key: String) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Inside an array, every value but the first is preceded by a comma; after a key, nothing is.
    private mutating func separate() {
        guard let last = bytes.last, last != UInt8(ascii: "["), last != UInt8(ascii: ":") else { return }
        bytes.append(UInt8(ascii: ","))
    }


    package mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }

    package mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// Integral values within ±2^53 as integers; other finite values in Swift's shortest round-trip
    /// form (valid JSON); non-finite values as `null`, since JSON has no spelling for them.
    package mutating func number(_ value: Double) {
        separate()
        guard value.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        if value.rounded(.towardZero) == value, abs(value) <= 9_007_199_254_740_992 {
            integerDigits(Int(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    package mutating func integer(_ value: Int) {
        separate()
        integerDigits(value)
    }

    private mutating func integerDigits(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude == 0 { bytes.append(UInt8(ascii: "0")); return }
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }

    /// A quoted string; escapes only `"`, `\` and control characters (`/` stays as is).
    package mutating func string(_ value: String) {
        separate()
        quoted(value)
    }

    private mutating func quoted(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
                case 0x0A: bytes.append(contentsOf: "\\n".utf8)
                case 0x0D: bytes.append(contentsOf: "\\r".utf8)
                case 0x09: bytes.append(contentsOf: "\\t".utf8)
                case 0x08: bytes.append(contentsOf: "\\b".utf8)
                case 0x0C: bytes.append(contentsOf: "\\f".utf8)
                default:
                    bytes.append(contentsOf: "\\u00".utf8)
                    bytes.append(Self.hexDigit(byte >> 4))
                    bytes.append(Self.hexDigit(byte & 0x0F))
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    package mutating func value(_ value: JSONValue, sortedKeys: Bool) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            beginArray()
            for item in items { self.value(item, sortedKeys: sortedKeys) }
            endArray()
        case .object(let object):
            beginObject()
            for entry in sortedKeys ? object.sortedEntries : object.entries {
                key(entry.key)
                self.value(entry.value, sortedKeys: sortedKeys)
            }
            endObject()
        }
    }
}
