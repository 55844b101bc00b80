import Foundation
import Testing
import Signing

@Suite struct PrimitivesTests {
    @Test func sha1HexMatchesFIPS180Vector() {
        #expect(Digest.sha1Hex(Data("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Digest.sha1Hex(Data()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func sha256MatchesFIPS180Vector() {
        let expected = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(Digest.sha256Hex(Data("abc".utf8)) == expected)
        #expect(Digest.sha256(Data("abc".utf8)).count == 32)
    }

    @Test func hmacSHA256MatchesRFC4231Case2() {
        let mac = Digest.hmacSHA256(key: Data("Jefe".utf8), data: Data("what do ya want for nothing?".utf8))
        #expect(Digest.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hexWritesTwoLowercaseDigitsAByteAsFormatDoes() {
        let every = (0...255).map(UInt8.init)
        #expect(Digest.hex(every) == every.map { String(format: "%02x", $0) }.joined())
        #expect(Digest.hex(Data([0x00, 0x0f, 0xa5, 0xff])) == "000fa5ff")
        #expect(Digest.hex([UInt8]()) == "")
    }

    @Test func constantTimeEqualsComparesContentAndLength() {
        #expect(constantTimeEquals("s3cret-token", "s3cret-token"))
        #expect(!constantTimeEquals("s3cret-token", "s3cret-tokem"))
        #expect(!constantTimeEquals("s3cret-token", "s3cret-token-longer"))
        #expect(!constantTimeEquals("s3cret", ""))
        #expect(constantTimeEquals("", ""))
        #expect(constantTimeEquals(Data([1, 2, 3]), Data([1, 2, 3])))
        #expect(!constantTimeEquals(Data([1, 2, 3]), Data([1, 2, 3, 0])))
    }

    @Test(arguments: [0, 1, 16, 64, 257])
    func tokenHasRequestedLengthAndAlphabet(length: Int) {
        let token = SecureRandom.token(length: length)
        #expect(token.count == length)
        #expect(token.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII })
    }

    @Test func tokensAreUniqueAndUseTheWholeAlphabet() {
        let tokens = (0..<1000).map { _ in SecureRandom.token(length: 24) }
        #expect(Set(tokens).count == tokens.count)
        // 24,000 characters: every one of the 62 appears unless the alphabet or sampling is broken.
        #expect(Set(tokens.joined()).count == 62)
    }

    @Test func randomBytesHaveRequestedCountAndDiffer() {
        #expect(SecureRandom.bytes(0).isEmpty)
        let first = SecureRandom.bytes(32)
        #expect(first.count == 32)
        #expect(first != SecureRandom.bytes(32))
    }
}
