internal import CArgon2

/// The calls into libargon2: argon2id hashing into a PHC string, and verification against one.
///
/// The only file of the package that calls libargon2; ``Argon2Gate`` turns its return codes into errors.
enum Argon2id {
    /// Hashes `password` with `salt` at `hasher`'s parameters through `argon2id_hash_encoded`, which
    /// writes the PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`, unpadded base64) itself.
    static func hashEncoded(_ password: [UInt8], salt: [UInt8], hasher: PasswordHasher) throws(PasswordError) -> String {
        let hashLength = UInt32(PasswordHasher.hashLength)
        // The exact length of the string, its terminating NUL included.
        let length = argon2_encodedlen(hasher.iterations, hasher.memoryKiB, hasher.parallelism, UInt32(salt.count), hashLength, Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let code = argon2id_hash_encoded(
            hasher.iterations, hasher.memoryKiB, hasher.parallelism, password, password.count, salt, salt.count, Int(hashLength),
            &encoded, encoded.count)
        try Argon2Gate.check(code)
        return encoded.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Whether `password` hashes to `encoded` at the parameters and salt `encoded` records.
    ///
    /// `argon2id_verify` compares the hashes in constant time. A malformed string, a mismatch and a
    /// failure (memory) are all `false`: none of them may let anyone in.
    static func verify(_ password: [UInt8], against encoded: String) -> Bool {
        encoded.withCString { argon2id_verify($0, password, password.count) } == ARGON2_OK.rawValue
    }
}
