import Testing

@testable import HTTPServer

/// The head checks on their own: which heads are refused, and which problem is named first.
@Suite struct RequestHeadCheckTests {
    private func refusal(_ fields: [(String, String)], target: String = "/a") -> String? {
        var headers = HTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        return RequestHeadCheck.refusal(method: "GET", target: target, headers: headers)
    }

    @Test func anOrdinaryHeadPasses() {
        #expect(refusal([("Host", "x"), ("Authorization", "ApplePass t"), ("Accept", "*/*"), ("Transfer-Encoding", "chunked")]) == nil)
    }

    @Test func aSingletonFieldTwiceIsRefusedWhateverItsCase() {
        #expect(refusal([("Host", "x"), ("authorization", "a"), ("AUTHORIZATION", "b")]) == "Authorization appears more than once")
        #expect(refusal([("content-type", "a"), ("Content-Type", "a")]) == "Content-Type appears more than once")
        // Named in the order of the list, not of the head.
        #expect(refusal([("Content-Type", "a"), ("Content-Type", "b"), ("Host", "x"), ("host", "y")]) == "Host appears more than once")
    }

    @Test func aLengthWithATransferCodingIsRefused() {
        #expect(refusal([("content-length", "3"), ("transfer-encoding", "chunked")]) == "Content-Length and Transfer-Encoding must not be sent together")
        #expect(refusal([("Transfer-Encoding", "chunked"), ("Content-Length", "3")]) == "Content-Length and Transfer-Encoding must not be sent together")
    }

    @Test func fieldsThatAreNotTokensOrCarryControlBytesAreRefused() {
        #expect(refusal([("Bad Name", "x")]) == "a header name is not an HTTP token (no spaces before the colon)")
        #expect(refusal([("X-A", "a\rb")]) == "header X-A contains CR, LF or NUL")
        #expect(refusal([], target: "/a b") == "the request target contains a byte that must be percent-encoded")
    }
}
