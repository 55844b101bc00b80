import Foundation
import HTTPServer
import Testing

/// The plain-Swift decoder must agree with Foundation's `removingPercentEncoding`, which it replaced
/// on every request's path, parameters and query.
@Suite struct PercentDecodingTests {
    @Test(arguments: [
        "", "plain", "a%20b", "J%C3%BCrgen", "%2F", "%2f", "%00", "100%", "%4", "%ZZ", "%zz1", "a%2", "%C3", "%C3%28",
        "%E2%82%AC", "%F0%9F%8E%AB", "%ED%A0%80", "%C0%AF", "caf%C3%A9%20%26%20bar", "+", "a+b", "%2B", "%%", "%g0",
    ])
    func agreesWithFoundation(text: String) {
        #expect(PercentDecoding.decode(text) == text.removingPercentEncoding)
        #expect(PercentDecoding.decode(Substring(text)) == text.removingPercentEncoding)
    }

    @Test func plusIsASpaceOnlyWhenAsked() {
        #expect(PercentDecoding.decode("a+b%2Bc", plusIsSpace: true) == "a b+c")
        #expect(PercentDecoding.decode("a+b%2Bc") == "a+b+c")
        #expect(PercentDecoding.decode("a+%ZZ", plusIsSpace: true) == nil)
    }
}
