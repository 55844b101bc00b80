import Foundation
@testable import Passwords
import Testing

@Suite("PasswordHasher")
struct PasswordHasherTests {
    let hasher = PasswordHasher()
    let password = "correct horse battery staple"
    /// "password" at the defaults with the salt "somesaltsomesalt" (from the argon2 CLI): the
    /// malformed cases below are this string broken, so their `false` comes from the breakage.
    static let wellFormed = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE"

    @Test("a password verifies against its hash; a different one does not")
    func roundTrip() throws {
        let encoded = try hasher.hash(password)
        #expect(hasher.verify(password, against: encoded))
        for wrong in ["correct horse battery stapl", "Correct horse battery staple", "correct horse battery staple ", "x"] {
            #expect(!hasher.verify(wrong, against: encoded), "\(wrong) verified")
        }
    }

    @Test("two hashes of one password differ in salt and hash, and both verify")
    func freshSaltEachTime() throws {
        let first = try hasher.hash(password)
        let second = try hasher.hash(password)
        let firstFields = first.split(separator: "$")
        let secondFields = second.split(separator: "$")
        #expect(firstFields[3] != secondFields[3])
        #expect(firstFields[4] != secondFields[4])
        #expect(hasher.verify(password, against: first) && hasher.verify(password, against: second))
    }

    @Test(
        "the PHC string names argon2id v19 and carries the hasher's parameters, a 16-byte salt and a 32-byte hash",
        arguments: [
            PasswordHasher(), PasswordHasher(memoryKiB: 65536, iterations: 3, parallelism: 4),
            PasswordHasher(memoryKiB: 4096, iterations: 1, parallelism: 2),
        ])
    func encodedParameters(hasher: PasswordHasher) throws {
        let encoded = try hasher.hash(password)
        #expect(encoded.hasPrefix("$argon2id$v=19$m="))
        #expect(encoded.hasPrefix("$argon2id$v=19$m=\(hasher.memoryKiB),t=\(hasher.iterations),p=\(hasher.parallelism)$"))
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        #expect(fields.count == 6)
        #expect(try decodedBase64(fields[4]).count == 16)
        #expect(try decodedBase64(fields[5]).count == 32)
        #expect(hasher.verify(password, against: encoded))
        #expect(!hasher.needsRehash(encoded))
    }

    @Test("the defaults are m=19456 KiB, t=2, p=1")
    func defaults() {
        #expect([hasher.memoryKiB, hasher.iterations, hasher.parallelism] == [19_456, 2, 1])
    }

    @Test("a hash with any field changed does not verify", arguments: Tamper.allCases)
    func tampered(tamper: Tamper) throws {
        let encoded = try hasher.hash(password)
        let changed = tamper.apply(to: encoded)
        #expect(changed != encoded)
        #expect(!hasher.verify(password, against: changed))
    }

    @Test(
        "strings that are not an argon2id v19 PHC string verify as false and need a rehash",
        arguments: [
            "", "$", "argon2id", "$argon2id$", "$argon2id$v=19$m=19456,t=2,p=1$",
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA",
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$",
            "$argon2id$v=19$m=19456,t=2,p=1$$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=19456,t=2$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$t=2,m=19456,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=x,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=+19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=99999999999,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=0,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=19456,t=0,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=19456,t=2,p=0$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE=",
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV-9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE\0trailing",
            "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE$extra",
            "$argon2i$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$v=16$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$argon2id$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K13EBUiG7JV+9ZxztmHFTdb7J0WQsnj2V8bZaqyPptE",
            "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
        ])
    func malformed(encoded: String) {
        #expect(hasher.verify("password", against: Self.wellFormed) && !hasher.needsRehash(Self.wellFormed))
        #expect(!hasher.verify("password", against: encoded))
        #expect(hasher.needsRehash(encoded))
    }

    @Test(
        "a hash made with other parameters needs a rehash; one made with the same does not",
        arguments: [
            PasswordHasher(memoryKiB: 19_457), PasswordHasher(memoryKiB: 65536), PasswordHasher(iterations: 3),
            PasswordHasher(parallelism: 2),
        ])
    func needsRehash(other: PasswordHasher) throws {
        let old = try other.hash(password)
        #expect(hasher.needsRehash(old))
        #expect(!other.needsRehash(old))
        // Still verifiable at the parameters it records, so the user can sign in and be rehashed.
        #expect(hasher.verify(password, against: old))
        #expect(!hasher.needsRehash(try hasher.hash(password)))
    }

    @Test("a hash with another salt length needs a rehash")
    func otherSaltLength() throws {
        let encoded = try hasher.hash(password, salt: Array("somesalt".utf8))
        #expect(hasher.verify(password, against: encoded))
        #expect(hasher.needsRehash(encoded))
    }

    @Test("an empty password is refused with a message that says what to do")
    func emptyPassword() throws {
        #expect(throws: PasswordError.empty) { try hasher.hash("") }
        #expect(PasswordError.empty.description == "The password is empty: type a password")
        #expect(!hasher.verify("", against: try hasher.hash(password)))
    }

    @Test("1,024 bytes are accepted; 1,025 are refused, counted in UTF-8 bytes, not characters")
    func lengthLimit() throws {
        let longest = String(repeating: "a", count: 1024)
        #expect(hasher.verify(longest, against: try hasher.hash(longest)))
        #expect(throws: PasswordError.tooLong(bytes: 1025, limit: 1024)) { try hasher.hash(longest + "b") }
        // 342 euro signs are 342 characters but 1,026 bytes.
        #expect(throws: PasswordError.tooLong(bytes: 1026, limit: 1024)) { try hasher.hash(String(repeating: "€", count: 342)) }
        let message = PasswordError.tooLong(bytes: 1025, limit: 1024).description
        #expect(message.contains("1025 bytes") && message.contains("limit of 1024") && message.contains("choose a shorter one"))
        // Verification refuses what hashing refuses, before any hashing.
        #expect(!hasher.verify(longest + "b", against: try hasher.hash(longest)))
    }

    @Test("a password typed as composed or decomposed characters, or in full width, is the same password (NFKC)")
    func normalized() throws {
        let composed = "p\u{E4}ssw\u{F6}rd"  // ä and ö as one code point each
        let decomposed = "pa\u{308}sswo\u{308}rd"  // a and o followed by a combining diaeresis
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(hasher.verify(decomposed, against: try hasher.hash(composed)))
        #expect(hasher.verify(composed, against: try hasher.hash(decomposed)))
        #expect(hasher.verify("\u{FF50}\u{FF41}\u{FF53}\u{FF53}", against: try hasher.hash("pass")))
        #expect(!hasher.verify("pa\u{308}ss", against: try hasher.hash("pass")))
    }

    @Test("parameters libargon2 refuses are an error in its words, not a crash")
    func refusedParameters() {
        #expect(throws: PasswordError.hashingFailed(reason: "Memory cost is too small")) {
            try PasswordHasher(memoryKiB: 4).hash(password)
        }
        #expect(throws: PasswordError.hashingFailed(reason: "Time cost is too small")) {
            try PasswordHasher(iterations: 0).hash(password)
        }
    }

    @Test("the reference implementation's published argon2id vector (phc-winner-argon2 src/test.c)")
    func publishedVector() throws {
        let reference = PasswordHasher(memoryKiB: 65536, iterations: 2, parallelism: 1)
        let expected = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(try reference.hash("password", salt: Array("somesalt".utf8)) == expected)
        #expect(reference.verify("password", against: expected))
        #expect(!reference.verify("passwore", against: expected))
    }
}

/// One way to change a stored hash, each leaving it well-formed.
enum Tamper: CaseIterable, Sendable {
    case hashCharacter, saltCharacter, memory, iterations, parallelism

    func apply(to encoded: String) -> String {
        var fields = encoded.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        switch self {
        case .hashCharacter: fields[5] = flipped(fields[5], at: 10)
        case .saltCharacter: fields[4] = flipped(fields[4], at: 3)
        case .memory: fields[3] = fields[3].replacingOccurrences(of: "m=19456", with: "m=19448")
        case .iterations: fields[3] = fields[3].replacingOccurrences(of: "t=2", with: "t=3")
        case .parallelism: fields[3] = fields[3].replacingOccurrences(of: "p=1", with: "p=2")
        }
        return fields.joined(separator: "$")
    }

    private func flipped(_ text: String, at offset: Int) -> String {
        var characters = Array(text)
        characters[offset] = characters[offset] == "A" ? "B" : "A"
        return String(characters)
    }
}

/// Decodes unpadded base64, as the PHC string writes it.
func decodedBase64(_ text: Substring) throws -> Data {
    let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    return try #require(Data(base64Encoded: String(padded)))
}
