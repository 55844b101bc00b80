import Foundation
internal import COpenSSL

/// Compares two secrets (tokens, HMACs) in time that does not depend on where they differ.
///
/// Both sides are hashed with SHA-256 first and the digests compared with `CRYPTO_memcmp`, so
/// neither the content nor whether the lengths differ shows in the comparison's timing.
public func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
    let left = Digest.sha256(a)
    let right = Digest.sha256(b)
    let difference = left.withUnsafeBytes { l in
        right.withUnsafeBytes { r in CRYPTO_memcmp(l.baseAddress, r.baseAddress, l.count) }
    }
    return difference == 0
}

/// Compares two secret strings by their UTF-8 bytes; see the `Data` overload.
public func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    constantTimeEquals(Data(a.utf8), Data(b.utf8))
}
