import Foundation

/// A password as the bytes argon2id hashes: its NFKC form in UTF-8, checked against the limits.
///
/// Normalized because the same password typed on two devices can arrive as different code points
/// ("é" as one, or as "e" and a combining accent); NIST SP 800-63B §5.1.1.2 asks for NFKC or NFKD
/// before hashing. Hashing and verifying both pass through here, so they always agree.
struct PasswordBytes {
    /// The normalized UTF-8 bytes, 1 to ``PasswordHasher/maximumPasswordBytes`` of them.
    let bytes: [UInt8]

    init(_ password: String) throws(PasswordError) {
        let bytes = Array(password.precomposedStringWithCompatibilityMapping.utf8)
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= PasswordHasher.maximumPasswordBytes else {
            throw .tooLong(bytes: bytes.count, limit: PasswordHasher.maximumPasswordBytes)
        }
        self.bytes = bytes
    }
}
