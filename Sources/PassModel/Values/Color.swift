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
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        if utf8.first == UInt8(ascii: "#") {
            guard let parsed = Self.hex(utf8.dropFirst()) else { return nil }
            self = parsed
        } else {
            guard let parsed = Self.rgb(utf8) else { return nil }
            self = parsed
        }
    }

    /// The Apple spelling, e.g. `rgb(23, 187, 82)`.
    public var description: String { "rgb(\(red), \(green), \(blue))" }

    private static func hex(_ digits: ArraySlice<UInt8>) -> Color? {
        var values: [UInt8] = []
        for byte in digits {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): values.append(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): values.append(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        switch values.count {
        case 3: return Color(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6: return Color(red: values[0] << 4 | values[1], green: values[2] << 4 | values[3], blue: values[4] << 4 | values[5])
        default: return nil
        }
    }

    private static func rgb(_ utf8: [UInt8]) -> Color? {
        guard utf8.count > 5, utf8.starts(with: "rgb(".utf8), utf8.last == UInt8(ascii: ")") else { return nil }
        let parts = utf8[4..<(utf8.count - 1)].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var components: [UInt8] = []
        for part in parts {
            let digits = part.drop { $0 == 0x20 }.reversed().drop { $0 == 0x20 }.reversed()
            guard !digits.isEmpty, digits.count <= 3,
                  digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard value <= 255 else { return nil }
            components.append(UInt8(value))
        }
        return Color(red: components[0], green: components[1], blue: components[2])
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
