import Foundation

/// A `pass.strings` file: the key → text table Wallet uses to localize the strings of `pass.json`.
///
/// Templates may be saved in UTF-8 or UTF-16 (with a BOM, either byte order), as editors do; the
/// archive always gets UTF-16LE with a BOM, which is what Apple's documentation asks for.
public struct StringsFile: Sendable, Hashable {
    /// Entries in file order; keys are unique.
    public private(set) var entries: [(key: String, value: String)]

    /// Looks a key up.
    public subscript(key: String) -> String? {
        entries.first { $0.key == key }?.value
    }

    /// The keys, in file order.
    public var keys: [String] { entries.map(\.key) }

    /// Creates a table from entries.
    public init(entries: [(key: String, value: String)]) {
        self.entries = entries
    }

    /// Parses the bytes of a `.strings` file; `file` names it in errors.
    public init(bytes: Data, file: String) throws(PassCompilerError) {
        let text = try Self.decodeText(bytes, file: file)
        var parser = StringsParser(text: text, file: file)
        entries = try parser.parseEntries()
    }

    /// UTF-16LE bytes with a byte order mark, one `"key" = "value";` line per entry.
    public func encodedUTF16() -> Data {
        var text = ""
        for (key, value) in entries {
            text += "\"\(Self.escape(key))\" = \"\(Self.escape(value))\";\n"
        }
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 {
            data.append(UInt8(unit & 0xFF))
            data.append(UInt8(unit >> 8))
        }
        return data
    }

    public static func == (lhs: StringsFile, rhs: StringsFile) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for (key, value) in entries {
            hasher.combine(key)
            hasher.combine(value)
        }
    }

    private static func escape(_ string: String) -> String {
        var out = ""
        for character in string.unicodeScalars {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    private static func decodeText(_ bytes: Data, file: String) throws(PassCompilerError) -> String {
        let prefix = Array(bytes.prefix(3))
        let decoded: String?
        if prefix.starts(with: [0xFF, 0xFE]) {
            decoded = String(data: bytes.dropFirst(2), encoding: .utf16LittleEndian)
        } else if prefix.starts(with: [0xFE, 0xFF]) {
            decoded = String(data: bytes.dropFirst(2), encoding: .utf16BigEndian)
        } else if prefix.starts(with: [0xEF, 0xBB, 0xBF]) {
            decoded = String(data: bytes.dropFirst(3), encoding: .utf8)
        } else if bytes.count >= 2, bytes[bytes.startIndex] != 0, bytes[bytes.startIndex + 1] == 0 {
            decoded = String(data: bytes, encoding: .utf16LittleEndian)
        } else {
            decoded = String(validating: bytes, as: UTF8.self)
        }
        guard let decoded else {
            throw .invalidStrings(file: file, line: 1, message: "not valid UTF-8 or UTF-16 text")
        }
        return decoded
    }
}
