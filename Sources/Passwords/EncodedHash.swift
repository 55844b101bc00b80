/// What a PHC string of argon2id version 19 records about how it was made: the parameters and the
/// salt's and hash's lengths, which ``PasswordHasher/needsRehash(_:)`` compares with a hasher's.
///
/// Read here because libargon2 has no call that returns them. Strict: only the shape libargon2 writes
/// (`$argon2id$v=19$m=M,t=T,p=P$SALT$HASH`, decimal numbers, unpadded standard base64) parses, so
/// ``PasswordHasher/verify(_:against:)`` can refuse anything else before libargon2 sees it (libargon2
/// reads a C string, so a valid hash followed by a NUL and anything at all would verify there).
struct EncodedHash: Equatable {
    let memoryKiB: UInt32
    let iterations: UInt32
    let parallelism: UInt32
    let saltLength: Int
    let hashLength: Int

    /// What a hash made by `hasher` records.
    init(madeBy hasher: PasswordHasher) {
        memoryKiB = hasher.memoryKiB
        iterations = hasher.iterations
        parallelism = hasher.parallelism
        saltLength = PasswordHasher.saltLength
        hashLength = PasswordHasher.hashLength
    }

    /// Parses `encoded`; `nil` for anything but an argon2id, version 19 PHC string.
    init?(_ encoded: String) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == "v=19" else { return nil }
        let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard costs.count == 3,
            let memoryKiB = Self.number(costs[0], named: "m"),
            let iterations = Self.number(costs[1], named: "t"),
            let parallelism = Self.number(costs[2], named: "p"),
            let saltLength = Self.base64ByteCount(fields[4]),
            let hashLength = Self.base64ByteCount(fields[5])
        else { return nil }
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
        self.saltLength = saltLength
        self.hashLength = hashLength
    }

    /// The value of `name=DIGITS`, if it fits 32 bits (libargon2's parameters are `uint32_t`).
    private static func number(_ field: Substring, named name: String) -> UInt32? {
        guard field.hasPrefix(name + "=") else { return nil }
        let digits = field.dropFirst(name.count + 1)
        // `UInt32("+5")` would parse: only ASCII digits are allowed.
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt32(digits)
    }

    /// How many bytes unpadded standard base64 text decodes to; `nil` outside its alphabet, or for a
    /// length no byte count encodes to (4n + 1 characters).
    private static func base64ByteCount(_ field: Substring) -> Int? {
        let isBase64 = field.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2F
        }
        guard !field.isEmpty, isBase64, field.utf8.count % 4 != 1 else { return nil }
        return field.utf8.count * 3 / 4
    }
}
