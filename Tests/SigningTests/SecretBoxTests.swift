import Foundation
import Signing
import Testing

/// Sealed secrets open only under the key that sealed them, and never as altered bytes.
@Suite struct SecretBoxTests {
    let box = SecretBox(deriving: Data("link key".utf8), purpose: "webhook secrets")

    @Test func aSealedSecretOpensToItself() throws {
        let secret = Data("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".utf8)
        let sealed = box.seal(secret)
        #expect(box.open(sealed) == secret)
        #expect(!sealed.contains("whsec_"), "the sealed form does not show the secret")
        #expect(box.seal(secret) != sealed, "a fresh nonce each time")
        #expect(box.open(box.seal(Data())) == Data())
    }

    @Test func anotherKeyOrPurposeOrAnAlteredByteDoesNotOpen() throws {
        let sealed = box.seal(Data("secret".utf8))
        #expect(SecretBox(deriving: Data("other key".utf8), purpose: "webhook secrets").open(sealed) == nil)
        #expect(SecretBox(deriving: Data("link key".utf8), purpose: "something else").open(sealed) == nil)
        var bytes = try #require(Data(base64Encoded: sealed))
        bytes[14] ^= 0x01
        #expect(box.open(bytes.base64EncodedString()) == nil)
        #expect(box.open("not base64!") == nil)
        #expect(box.open(Data(count: 10).base64EncodedString()) == nil)
    }
}
