import Foundation
import Signing

/// The text of an API key: `pw_<id>_<secret><check>`. The `pw_` prefix and the six check characters
/// (the start of a SHA-256 of the rest, in base 62) let a secret scanner recognise a leaked key and
/// tell it from random text without asking the server; the id finds the stored key, whose secret is
/// kept only as a hash.
public struct APIKeyToken: Sendable, Equatable {
    /// The public id: 12 lowercase letters and digits, shown in lists and logs.
    public let id: String
    /// The 32 base-62 characters of the secret (about 190 bits).
    let secret: String

    static let prefix = "pw_"
    static let idLength = 12
    static let secretLength = 32
    static let checkLength = 6
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    private static let idAlphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    /// A new key: a fresh id and secret from the system's random source.
    public static func generate() -> APIKeyToken {
        APIKeyToken(id: random(idLength, from: idAlphabet), secret: random(secretLength, from: alphabet))
    }

    /// Reads a key, or `nil` when `text` is not one (wrong prefix, length or check characters).
    public init?(_ text: String) {
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "pw", parts[1].count == Self.idLength, parts[2].count == Self.secretLength + Self.checkLength,
              parts[1].allSatisfy({ Self.idAlphabet.contains($0) }), parts[2].allSatisfy({ Self.alphabet.contains($0) })
        else { return nil }
        let secret = String(parts[2].prefix(Self.secretLength))
        guard String(parts[2].suffix(Self.checkLength)) == Self.check(id: String(parts[1]), secret: secret) else { return nil }
        self.init(id: String(parts[1]), secret: secret)
    }

    /// A fresh secret for the key `id` (a rotation keeps the key's id).
    init(reusing id: String) {
        self.init(id: id, secret: Self.random(Self.secretLength, from: Self.alphabet))
    }

    private init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// The whole key, as shown once to its owner.
    public var text: String { Self.prefix + id + "_" + secret + Self.check(id: id, secret: secret) }

    /// What the store keeps: SHA-256 of the secret in hex. The secret is random and long, so a fast
    /// hash is enough (nothing to guess); the key itself never reaches the database.
    public var hash: String { Digest.sha256Hex(Data(secret.utf8)) }

    private static func check(id: String, secret: String) -> String {
        var value = Digest.sha256(Data((prefix + id + "_" + secret).utf8)).prefix(5).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var out: [Character] = []
        for _ in 0..<checkLength {
            out.append(alphabet[Int(value % 62)])
            value /= 62
        }
        return String(out)
    }

    private static func random(_ count: Int, from alphabet: [Character]) -> String {
        // Rejection sampling keeps every character equally likely.
        let limit = UInt8(256 - 256 % alphabet.count)
        var out: [Character] = []
        while out.count < count {
            for byte in SecureRandom.bytes(count * 2) where byte < limit && out.count < count {
                out.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(out)
    }
}
