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
                      "rgb(-1, 0, 0)", "rgb(1.5, 0, 0)", "rgb(1, 2, 3", " rgb(1, 2, 3)", ""])
    func rejected(text: String) {
        #expect(Color(text) == nil)
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
