import Foundation
import Testing
import PassModel

@Suite struct ColorTests {
    @Test(arguments: [
        ("rgb(23, 187, 82)", 23 as UInt8, 187 as UInt8, 82 as UInt8), ("rgb(23,187,82)", 23, 187, 82), ("rgb( 0 , 0 , 255 )", 0, 0, 255),
        ("#17BB52", 23, 187, 82), ("#17bb52", 23, 187, 82), ("#fff", 255, 255, 255), ("#0a0", 0, 170, 0),
    ])
    func accepted(text: String, red: UInt8, green: UInt8, blue: UInt8) throws {
        let color = try #require(Color(text))
        #expect(color == Color(red: red, green: green, blue: blue))
        #expect(color.description == "rgb(\(red), \(green), \(blue))")
    }

    @Test(arguments: ["red", "rgb(256, 0, 0)", "rgb(1, 2)", "rgb(1, 2, 3, 4)", "rgba(1, 2, 3, 0.5)", "#12345", "#GGGGGG",
                      "rgb(-1, 0, 0)", "rgb(1.5, 0, 0)", "rgb(1, 2, 3", " rgb(1, 2, 3)", "",
                      "rgb(0001, 2, 3)", "rgb(99999999999999999999999, 0, 0)"])
    func rejected(text: String) {
        #expect(Color(text) == nil)
    }

    /// The parser reads the bytes in one pass; this is the rule written plainly (split on commas,
    /// trim spaces), against which 200,000 strings shaped like colours, with slips, must agree.
    @Test func theOnePassParserAgreesWithTheRuleWrittenPlainly() {
        var generator = SystemRandomNumberGenerator()
        func pick(_ characters: String, _ count: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: count, using: &generator)).map { _ in characters.randomElement(using: &generator)! })
        }
        var disagreements: [String] = []
        for _ in 0..<200_000 {
            let text: String
            if Bool.random(using: &generator) {
                text = "#" + pick("0123456789abcdefABCDEFgG-", 0...8)
            } else {
                let components = (0..<Int.random(in: 2...4, using: &generator)).map { _ in
                    pick("  ", 0...2) + pick("0123456789", Bool.random(using: &generator) ? 0...5 : 18...24) + pick(" .-x", 0...1) + pick("  ", 0...2)
                }
                text = pick("r ", 0...1) + "rgb(" + components.joined(separator: pick(",, ;", 1...1)) + pick(")) ", 0...2)
            }
            if Color(text) != Self.plainly(text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    static func plainly(_ text: String) -> Color? {
        if text.hasPrefix("#") {
            let digits = text.dropFirst()
            guard digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else { return nil }
            let values = digits.map { UInt8($0.hexDigitValue!) }
            return values.count == 3
                ? Color(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
                : Color(red: values[0] << 4 | values[1], green: values[2] << 4 | values[3], blue: values[4] << 4 | values[5])
        }
        guard text.hasPrefix("rgb("), text.hasSuffix(")"), text.utf8.count > 5 else { return nil }
        let parts = text.dropFirst(4).dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var components: [UInt8] = []
        for part in parts {
            let digits = part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
            guard (1...3).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(String(digits)), value <= 255 else { return nil }
            components.append(UInt8(value))
        }
        return Color(red: components[0], green: components[1], blue: components[2])
    }
}

@Suite struct W3CDateTests {
    @Test(arguments: [
        ("1980-05-07T10:30-05:00", "1980-05-07T10:30:00-05:00"),
        ("2025-12-09T13:00:00Z", "2025-12-09T13:00:00Z"),
        ("2025-12-09T13:00:00.000Z", "2025-12-09T13:00:00Z"),
        ("2025-12-09T13:00:00.123456+05:30", "2025-12-09T13:00:00+05:30"),
        ("2024-02-29T23:59:59+00:00", "2024-02-29T23:59:59Z"),
        ("2026-01-01T00:00+14:00", "2026-01-01T00:00:00+14:00"),
    ])
    func accepted(text: String, written: String) throws {
        let date = try #require(W3CDate(text))
        #expect(date.description == written)
        #expect(W3CDate(written) == date)
    }

    @Test(arguments: [
        "2025-12-09T13:00:00+0000", "2025-12-09T13:00:00ZZ", "2025-12-09T13:00:00", "2025-12-09 13:00:00Z",
        "2025-12-09T13:00:00 05:00", "2025-12-09", "2025-12-09T13Z", "2025-13-09T13:00Z", "2025-02-29T13:00Z",
        "2025-12-09T24:00Z", "2025-12-09T13:60Z", "2025-12-09T13:00:00.Z", "2025-12-09T13:00:00Zjunk", "2025-12-09t13:00z",
        "2025-12-09T13:00:00+5:00", "",
    ])
    func rejected(text: String) {
        #expect(W3CDate(text) == nil)
    }

    @Test func keepsTheOffsetAndTheInstant() throws {
        let date = try #require(W3CDate("2026-07-01T10:00:00-04:00"))
        #expect(date.secondsFromGMT == -4 * 3600)
        #expect(date.date == Date(timeIntervalSince1970: 1_782_914_400))
        #expect(date == W3CDate(date: Date(timeIntervalSince1970: 1_782_914_400.9), secondsFromGMT: -4 * 3600))
        #expect(W3CDate(date: date.date).description == "2026-07-01T14:00:00Z")
    }
}
