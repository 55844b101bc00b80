import Foundation
internal import COpenSSL

/// Hashes for manifests (SHA-1, as Wallet requires for `manifest.json`), fingerprints and tokens.
///
/// One-shot libcrypto calls on digests fetched once per process: OpenSSL 3 otherwise looks the
/// algorithm up on every call, which dominates the cost of hashing small pass files.
public enum Digest {
    /// Lowercase hex SHA-1, the value format of every `manifest.json` entry.
    public static func sha1Hex(_ data: Data) -> String {
        hex(digest(data, with: FetchedDigests.shared.sha1))
    }

    /// SHA-256 of `data`.
    public static func sha256(_ data: Data) -> Data {
        digest(data, with: FetchedDigests.shared.sha256)
    }

    /// Lowercase hex SHA-256 of `data`.
    public static func sha256Hex(_ data: Data) -> String {
        hex(sha256(data))
    }

    /// HMAC-SHA256 of `data` under `key` (RFC 2104), for deriving or checking tokens.
    public static func hmacSHA256(key: Data, data: Data) -> Data {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { dataBytes in
                HMAC(FetchedDigests.shared.sha256, keyBytes.baseAddress, Int32(keyBytes.count),
                     dataBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), dataBytes.count,
                     &output, &length)
            }
        }
        precondition(result != nil, "HMAC-SHA256 failed: \(OpenSSLGate.drainErrors())")
        return Data(output.prefix(Int(length)))
    }

    /// Lowercase hex SHA-256 of `prefix` followed by everything `handle` reads to its end, a megabyte
    /// at a time: the fingerprint of an upload too large to hold in memory.
    public static func sha256Hex(_ prefix: Data, thenReading handle: FileHandle) throws -> String {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed: \(OpenSSLGate.drainErrors())") }
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestInit_ex(context, FetchedDigests.shared.sha256, nil) == 1, "EVP_DigestInit_ex failed")
        var chunk = prefix
        repeat {
            chunk.withUnsafeBytes { bytes in _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }
            chunk = try handle.read(upToCount: 1 << 20) ?? Data()
        } while !chunk.isEmpty
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &output, &length) == 1, "EVP_DigestFinal_ex failed")
        return hex(Data(output.prefix(Int(length))))
    }

    private static func digest(_ data: Data, with algorithm: OpaquePointer) -> Data {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = data.withUnsafeBytes { bytes in
            EVP_Digest(bytes.baseAddress, bytes.count, &output, &length, algorithm, nil)
        }
        // Fails only on allocation failure or a broken OpenSSL install: not recoverable here.
        precondition(result == 1, "EVP_Digest failed: \(OpenSSLGate.drainErrors())")
        return Data(output.prefix(Int(length)))
    }

    /// `bytes` as lowercase hex, two digits a byte: digests, signatures of links, random tokens.
    /// (Foundation's `String(format: "%02x")` a byte was 5 % of an issue's CPU, BENCHMARKS.md.)
    public static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The digest algorithms fetched from the default provider once per process.
///
/// `@unchecked Sendable`: the `EVP_MD` handles are immutable and kept for the process lifetime;
/// OpenSSL allows a fetched algorithm to be used from any thread.
final class FetchedDigests: @unchecked Sendable {
    static let shared = FetchedDigests()

    let sha1: OpaquePointer
    let sha256: OpaquePointer

    private init() {
        guard let sha1 = EVP_MD_fetch(nil, "SHA1", nil), let sha256 = EVP_MD_fetch(nil, "SHA256", nil) else {
            fatalError("OpenSSL has no SHA-1/SHA-256 (is the default provider available?): \(OpenSSLGate.drainErrors())")
        }
        self.sha1 = sha1
        self.sha256 = sha256
    }
}
