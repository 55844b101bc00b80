import Foundation
internal import COpenSSL

/// Borrowed and owned OpenSSL memory BIOs, the bridge between `Data` and OpenSSL's streams.
enum MemoryBIO {
    /// Lends a read-only BIO over `data` for the duration of `body`; OpenSSL does not copy the bytes,
    /// so the BIO must not escape.
    @discardableResult
    static func reading<R>(_ data: Data, _ body: (OpaquePointer) throws -> R) throws -> R {
        try data.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else {
                throw SigningError.signingFailed(operation: "BIO_new_mem_buf", details: OpenSSLGate.drainErrors())
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Lends a growable write BIO to `body` and returns what was written to it.
    static func writing(_ body: (OpaquePointer) throws -> Void) throws -> Data {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw SigningError.signingFailed(operation: "BIO_new", details: OpenSSLGate.drainErrors())
        }
        defer { BIO_free(bio) }
        try body(bio)
        var pointer: UnsafeMutablePointer<CChar>?
        let length = passwright_BIO_get_mem_data(bio, &pointer)
        guard let pointer, length > 0 else { return Data() }
        return Data(bytes: pointer, count: length)
    }
}

/// Encodes an OpenSSL object with its `i2d_*` function into DER `Data`.
func derEncode(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> Data? {
    let length = encode(nil)
    guard length > 0 else { return nil }
    var data = Data(count: Int(length))
    let written = data.withUnsafeMutableBytes { bytes -> Int32 in
        var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        return encode(&cursor)
    }
    return written == length ? data : nil
}
