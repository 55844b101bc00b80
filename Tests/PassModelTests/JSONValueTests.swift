import Foundation
import Testing
import PassModel

@Suite struct JSONValueTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    private func roundTrip(_ text: String, sortedKeys: Bool = false) throws -> String {
        String(decoding: try parse(text).serialized(sortedKeys: sortedKeys), as: UTF8.self)
    }

    @Test(arguments: [
        ("1", "1"), ("-7", "-7"), ("1.0", "1"), ("1e3", "1000"), ("0.5", "0.5"), ("-0.25", "-0.25"),
        ("123456789012345", "123456789012345"), ("9007199254740992", "9007199254740992"), ("1.5e300", "1.5e+300"),
    ])
    func numbersKeepIntegersAsIntegers(input: String, output: String) throws {
        #expect(try roundTrip("[\(input)]") == "[\(output)]")
    }

    @Test func keyOrderIsKeptOrSorted() throws {
        let text = #"{"b":1,"a":{"d":true,"c":null},"e":["x",{"z":1,"y":2}]}"#
        #expect(try roundTrip(text) == text)
        #expect(try roundTrip(text, sortedKeys: true) == #"{"a":{"c":null,"d":true},"b":1,"e":["x",{"y":2,"z":1}]}"#)
        #expect(try parse(text) == (try parse(#"{"e":["x",{"y":2,"z":1}],"a":{"c":null,"d":true},"b":1}"#)), "equality ignores key order")
    }

    @Test func stringsEscapeOnlyWhatJSONRequires() throws {
        let value = JSONValue.string("a/b \"q\" \\ \n\t\u{01} é 😀")
        #expect(String(decoding: value.serialized(sortedKeys: true), as: UTF8.self) == #""a/b \"q\" \\ \n\t\u0001 é 😀""#)
        #expect(try parse(#""\u00e9\ud83d\ude00\/""#) == .string("é😀/"))
    }

    @Test func repeatedKeyKeepsTheLastValue() throws {
        #expect(try parse(#"{"a":1,"a":2}"#) == .object(["a": .number(2)]))
    }

    @Test func deepNestingFailsCleanly() throws {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        let error = #expect(throws: PassDecodingError.self) { try parse(deep) }
        #expect(error?.description.contains("nesting deeper than 64") == true)
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try parse(allowed) }
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"abc", "[1] x", "{\"a\":1,}", "\"\\x\"",
        "\"\u{01}\"", "\"\\ud800\"", "NaN", "1e999",
    ])
    func malformedJSONIsRejected(text: String) {
        #expect(throws: PassDecodingError.self) { try parse(text) }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: PassDecodingError.self) { try JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) }
    }

    @Test func codableBridgeKeepsTheTree() throws {
        let value = try parse(#"{"a":[1,2.5,"x",true,null],"b":{"c":"d"}}"#)
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
