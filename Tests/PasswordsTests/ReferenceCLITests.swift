import Foundation
@testable import Passwords
import PasswrightTesting
import Testing

/// Passwords against the `argon2` command of the reference implementation (Debian's `argon2` package,
/// in packages/test.list), a separate program that shares none of this package's code: what it writes
/// must verify here, and for the same salt both must produce the same bytes.
@Suite("PasswordHasher against the argon2 CLI")
struct ReferenceCLITests {
    /// ASCII, so it passes through the command line unchanged; 16 bytes, as a fresh salt is.
    let salt = "passwright-salt!"

    @Test(
        "the CLI's PHC string verifies, and ours for the same salt is the same string with the same raw hash",
        arguments: [
            (PasswordHasher(), "correct horse battery staple"),
            (PasswordHasher(), "p\u{E4}ssw\u{F6}rd \u{2603}"),  // NFC already, so the CLI hashes the same bytes
            (PasswordHasher(memoryKiB: 65536, iterations: 3, parallelism: 4), "correct horse battery staple"),
        ])
    func sameHashAsTheCLI(hasher: PasswordHasher, password: String) async throws {
        let costs = ["-id", "-k", "\(hasher.memoryKiB)", "-t", "\(hasher.iterations)", "-p", "\(hasher.parallelism)", "-l", "32"]
        let encoded = try await argon2(costs + ["-e"], password: password)
        let rawHex = try await argon2(costs + ["-r"], password: password)

        #expect(hasher.verify(password, against: encoded))
        #expect(!hasher.verify(password + "!", against: encoded))
        #expect(!hasher.needsRehash(encoded))

        let ours = try hasher.hash(password, salt: Array(salt.utf8))
        #expect(ours == encoded)
        let ourHash = try decodedBase64(try #require(ours.split(separator: "$").last))
        #expect(ourHash.map { String(format: "%02x", $0) }.joined() == rawHex)
    }

    @Test("a CLI hash of another length needs a rehash, and still verifies")
    func otherHashLength() async throws {
        let hasher = PasswordHasher()
        let encoded = try await argon2(["-id", "-k", "19456", "-t", "2", "-p", "1", "-l", "16", "-e"], password: "hunter2")
        #expect(hasher.verify("hunter2", against: encoded))
        #expect(hasher.needsRehash(encoded))
    }

    /// One line of the CLI's output for `password` (on stdin, without a newline) and ``salt``.
    private func argon2(_ options: [String], password: String) async throws -> String {
        let result = try await Subprocess.tool("argon2", [salt] + options, stdin: Data(password.utf8))
        try #require(result.succeeded, "the argon2 CLI (Debian package argon2; scripts/setup.sh installs it): \(result)")
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
