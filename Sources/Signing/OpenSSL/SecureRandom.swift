internal import COpenSSL

/// Random bytes and tokens from OpenSSL's CSPRNG, for authentication tokens and serial numbers.
public enum SecureRandom {
    /// `count` bytes from `RAND_bytes`.
    ///
    /// A failing CSPRNG leaves no safe way to continue (a predictable token is worse than a
    /// crash), so failure stops the process instead of throwing.
    public static func bytes(_ count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return buffer }
        let result = RAND_bytes(&buffer, Int32(count))
        precondition(result == 1, "RAND_bytes failed: \(OpenSSLGate.drainErrors())")
        return buffer
    }

    /// A token of `length` characters from `A–Z a–z 0–9`: URL-, header- and filename-safe.
    ///
    /// Every character is equally likely: bytes of 248 and above are rejected, because 248 is the
    /// largest multiple of 62 that fits in a byte, so `byte % 62` carries no bias.
    /// Wallet wants an `authenticationToken` of at least 16 characters.
    public static func token(length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        let limit = UInt8(256 / alphabet.count * alphabet.count)
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        while characters.count < length {
            for byte in bytes(length - characters.count + 8) where byte < limit && characters.count < length {
                characters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
