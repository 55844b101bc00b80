/// A pass colour. Wallet documents `rgb(r, g, b)`; Apple's own tooling also reads `#RRGGBB` and `#RGB`,
/// so both are accepted, and `rgb(r, g, b)` is always written for the widest compatibility (Apple's Pass reference).
///
/// The components are public so a linter can compute WCAG contrast.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Creates a colour from 0–255 components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `rgb(r, g, b)` (spaces optional), `#RRGGBB` or `#RGB`; `nil` for anything else
    /// (named colours, `rgba`, out-of-range components), which Wallet would not show.
    ///
    /// One pass over the UTF-8 bytes with nothing allocated: every pass rendered parses its three
    /// colours, and splitting into arrays was 2 % of a roll-out's CPU on the server (BENCHMARKS.md).
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ bytes in bytes.first == UInt8(ascii: "#") ? Self.hex(bytes.dropFirst()) : Self.rgb(bytes) }) else {
            return nil
        }
        self = parsed
    }

    /// The Apple spelling, e.g. `rgb(23, 187, 82)`.
    public var description: String { "rgb(\(red), \(green), \(blue))" }

    /// Three or six hexadecimal digits, either case.
    private static func hex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Color? {
        guard digits.count == 3 || digits.count == 6 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let nibble = nibble(byte) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        if digits.count == 3 {
            return Color(red: UInt8(value >> 8 & 0xF) * 17, green: UInt8(value >> 4 & 0xF) * 17, blue: UInt8(value & 0xF) * 17)
        }
        return Color(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `rgb(` three components separated by commas `)`: each one to three decimal digits up to 255,
    /// with spaces around it allowed.
    private static func rgb(_ bytes: UnsafeBufferPointer<UInt8>) -> Color? {
        guard bytes.count > 5, bytes.starts(with: "rgb(".utf8), bytes.last == UInt8(ascii: ")") else { return nil }
        var index = 4
        let end = bytes.count - 1
        var components: (UInt8, UInt8, UInt8) = (0, 0, 0)
        for component in 0..<3 {
            while index < end, bytes[index] == 0x20 { index += 1 }
            var value = 0, digits = 0
            while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                // A fourth digit is refused before it can grow the value (or overflow it).
                guard digits < 3 else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            while index < end, bytes[index] == 0x20 { index += 1 }
            guard digits > 0, value <= 255 else { return nil }
            switch component {
            case 0: components.0 = UInt8(value)
            case 1: components.1 = UInt8(value)
            default: components.2 = UInt8(value)
            }
            // A comma after the first two, the closing parenthesis after the third.
            if component < 2 {
                guard index < end, bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            } else {
                guard index == end else { return nil }
            }
        }
        return Color(red: components.0, green: components.1, blue: components.2)
    }
}

extension Color: JSONCodable {
    package init(json: JSONValue, at path: JSONPath, issues: inout [ValidationIssue]) throws(PassDecodingError) {
        guard case .string(let text) = json, let color = Color(text) else {
            throw .mismatch(path, expected: "a colour as rgb(r, g, b), #RRGGBB or #RGB", found: json)
        }
        self = color
    }

    package func write(to writer: inout JSONWriter) { writer.string(description) }
}
