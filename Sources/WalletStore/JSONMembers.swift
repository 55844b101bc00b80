/// The top-level members of a JSON object text, each value kept as the bytes it was written with.
///
/// The store compares JSON as text (callers canonicalize it), so which top-level keys a change
/// touched is which members' texts differ: one linear scan of each text, no parse tree. Used inside
/// a write's transaction, where only microseconds of work belong.
enum JSONMembers {
    /// The members of `text` by decoded key, or `nil` when it is not a JSON object (a number, an
    /// array, or malformed text: the caller then compares the texts whole).
    static func of(_ text: String) -> [String: ArraySlice<UInt8>]? {
        let bytes = Array(text.utf8)
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var members: [String: ArraySlice<UInt8>] = [:]
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "}")) { return scanner.atEndAfterSpace() ? members : nil }
        while true {
            scanner.skipSpace()
            guard let key = scanner.string() else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            guard let value = scanner.value() else { return nil }
            members[key] = value
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) { continue }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            return scanner.atEndAfterSpace() ? members : nil
        }
    }

    /// The keys whose member texts differ between `old` and `new` (added, removed or changed),
    /// sorted; `nil` when either is not an object.
    static func changedKeys(from old: String, to new: String) -> [String]? {
        guard let before = of(old), let after = of(new) else { return nil }
        return Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func atEndAfterSpace() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Skips one string, returning where its contents start and end (escapes left as written).
        mutating func skipString() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<(index - 1)
                case UInt8(ascii: "\\"):
                    index += 2
                default:
                    index += 1
                }
            }
            return nil
        }

        /// A string, decoded.
        mutating func string() -> String? {
            guard let range = skipString() else { return nil }
            let raw = bytes[range]
            guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
            return Self.unescape(raw)
        }

        /// One value of any kind, as written.
        mutating func value() -> ArraySlice<UInt8>? {
            let start = index
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard skipString() != nil else { return nil }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                repeat {
                    guard index < bytes.count else { return nil }
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        guard skipString() != nil else { return nil }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                    default:
                        break
                    }
                    index += 1
                } while depth > 0
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                }
                guard index > start else { return nil }
            }
            return bytes[start..<index]
        }

        /// The string an escaped JSON string body stands for, or `nil` for a malformed escape.
        static func unescape(_ raw: ArraySlice<UInt8>) -> String? {
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            var i = raw.startIndex
            func flush() {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll()
            }
            func hex(at position: Int) -> UInt32? {
                guard position + 4 <= raw.endIndex else { return nil }
                return UInt32(String(decoding: raw[position..<position + 4], as: UTF8.self), radix: 16)
            }
            while i < raw.endIndex {
                let byte = raw[i]
                guard byte == UInt8(ascii: "\\") else { utf8.append(byte); i += 1; continue }
                guard i + 1 < raw.endIndex else { return nil }
                let escaped = raw[i + 1]
                i += 2
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex(at: i) else { return nil }
                    i += 4
                    if (0xD800..<0xDC00).contains(code), i + 6 <= raw.endIndex, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u"),
                       let low = hex(at: i + 2), (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                    flush()
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default:
                    return nil
                }
            }
            flush()
            return String(scalars)
        }
    }
}
