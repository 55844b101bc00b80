/// Hashes console users' passwords with argon2id into PHC strings, and checks passwords against them.
///
/// argon2id (RFC 9106) is memory-hard: each guess at a stolen hash costs an attacker the memory as well
/// as the time, which GPUs and ASICs cannot cheapen the way they cheapen SHA-2 or PBKDF2. The PHC
/// string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) carries its own parameters and salt, so a hash
/// stays verifiable after the defaults are raised, and ``needsRehash(_:)`` says when to replace it.
///
/// The defaults are OWASP's minimum argon2id configuration (Password Storage Cheat Sheet: m = 19 MiB,
/// t = 2, p = 1), not RFC 9106's second recommendation (m = 64 MiB, t = 3, p = 4), because the server has
/// 2 cores that also sign passes. Measured there with `Benchmarks/signin.sh` (BENCHMARKS.md, "Console
/// sign-in"): a hash at the defaults holds one core for 24–30 ms (the CPU time of 30–40 signatures),
/// and signing keeps the other; RFC 9106's set takes 200–210 ms of CPU, holds both cores for 150 ms
/// when they are free, and 64 MiB per concurrent sign-in; its 4 lanes buy nothing on 2 cores. An
/// attacker's cost per guess grows with m × t, not with p: raise m and t (keeping p at 1) as the
/// hardware grows. Verifying costs as much as hashing.
public struct PasswordHasher: Sendable, Equatable {
    /// Memory per hash, in KiB (argon2id's m). At least 8 × ``parallelism``.
    public let memoryKiB: UInt32
    /// Passes over that memory (argon2id's t). At least 1.
    public let iterations: UInt32
    /// Lanes, each hashed on a thread of its own (argon2id's p).
    public let parallelism: UInt32

    /// Bytes of fresh salt per hash: 128 bits, as in both of RFC 9106 §4's recommended options.
    public static let saltLength = 16
    /// Bytes of hash: 256 bits, as in both of RFC 9106 §4's recommended options.
    public static let hashLength = 32
    /// The longest password accepted, in UTF-8 bytes after normalization. Far above any passphrase, low
    /// enough that a sign-in form cannot be used to post megabytes into the hash.
    public static let maximumPasswordBytes = 1024

    /// A hasher with the given argon2id parameters; the defaults are explained on the type.
    public init(memoryKiB: UInt32 = 19_456, iterations: UInt32 = 2, parallelism: UInt32 = 1) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// The PHC string of `password` with a fresh random salt: what to store for a user.
    ///
    /// Throws ``PasswordError/empty`` or ``PasswordError/tooLong(bytes:limit:)`` for a password outside
    /// the limits, and ``PasswordError/hashingFailed(reason:)`` if libargon2 refuses the parameters or
    /// cannot allocate the memory.
    public func hash(_ password: String) throws(PasswordError) -> String {
        try hash(password, salt: Self.freshSalt())
    }

    /// The PHC string of `password` with `salt`: for tests against published vectors and other
    /// implementations only, since a salt must never be reused.
    func hash(_ password: String, salt: [UInt8]) throws(PasswordError) -> String {
        try Argon2id.hashEncoded(PasswordBytes(password).bytes, salt: salt, hasher: self)
    }

    /// Whether `password` is the one `encoded` was made from, at the parameters `encoded` records.
    ///
    /// `false` for a wrong password, a password outside the limits, and anything that is not an argon2id
    /// version 19 PHC string; never throws, so no failure can be mistaken for a match. The comparison
    /// inside libargon2 takes the same time wherever the hashes differ. The parameters are taken from
    /// `encoded` as stored, so it must come from the store, never from a request.
    public func verify(_ password: String, against encoded: String) -> Bool {
        guard EncodedHash(encoded) != nil, let password = try? PasswordBytes(password) else { return false }
        return Argon2id.verify(password.bytes, against: encoded)
    }

    /// Whether `encoded` was made with other parameters (or salt or hash length) than this hasher's, or
    /// cannot be read: after a successful ``verify(_:against:)``, hash the password again and store it.
    public func needsRehash(_ encoded: String) -> Bool {
        EncodedHash(encoded) != EncodedHash(madeBy: self)
    }

    /// ``saltLength`` bytes from the system's CSPRNG: `SystemRandomNumberGenerator` reads `getrandom(2)`
    /// on Linux and stops the process if it cannot, since a predictable salt is worse than a crash.
    private static func freshSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
