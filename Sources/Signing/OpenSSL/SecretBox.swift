import Foundation
internal import COpenSSL

/// Seals secrets the server must read back later (webhook signing secrets) with AES-256-GCM under a
/// key only the server holds, so the database alone, or a backup of it, does not give them away.
///
/// The sealed form is `base64(nonce ‖ ciphertext ‖ tag)`, a fresh 96-bit nonce per seal; `open` fails
/// for anything not sealed under the same key (the tag does not verify), never returns altered bytes.
public struct SecretBox: Sendable {
    private let key: Data

    /// A box whose key is derived from `secret` for one `purpose` (HMAC-SHA256), so one server secret
    /// can key several boxes without their keys being related.
    public init(deriving secret: Data, purpose: String) {
        key = Digest.hmacSHA256(key: secret, data: Data("passwright secret box: \(purpose)".utf8))
    }

    public func seal(_ plaintext: Data) -> String {
        let nonce = SecureRandom.bytes(12)
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
        var tag = [UInt8](repeating: 0, count: 16)
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var scratch = [UInt8](repeating: 0, count: 16)
        let ok = key.withUnsafeBytes { keyBytes in
            plaintext.withUnsafeBytes { input in
                EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonce) == 1
                    && EVP_EncryptUpdate(context, &ciphertext, &length, input.bindMemory(to: UInt8.self).baseAddress, Int32(plaintext.count)) == 1
                    // GCM writes nothing at the end; the scratch byte is only somewhere to point at.
                    && EVP_EncryptFinal_ex(context, &scratch, &length) == 1
                    && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
            }
        }
        precondition(ok, "AES-256-GCM sealing failed: \(OpenSSLGate.drainErrors())")
        return Data(nonce + ciphertext + tag).base64EncodedString()
    }

    /// The plaintext of `sealed`, or `nil` when it was not sealed under this key or was altered.
    public func open(_ sealed: String) -> Data? {
        guard let bytes = Data(base64Encoded: sealed).map(Array.init), bytes.count >= 28 else { return nil }
        let nonce = Array(bytes[0..<12])
        let ciphertext = Array(bytes[12..<(bytes.count - 16)])
        var tag = Array(bytes[(bytes.count - 16)...])
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var finalLength: Int32 = 0
        var scratch = [UInt8](repeating: 0, count: 16)
        let ok = key.withUnsafeBytes { keyBytes in
            EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonce) == 1
                && EVP_DecryptUpdate(context, &plaintext, &length, ciphertext, Int32(ciphertext.count)) == 1
                && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1
                && EVP_DecryptFinal_ex(context, &scratch, &finalLength) == 1
        }
        OpenSSLGate.begin()
        return ok ? Data(plaintext.prefix(Int(length))) : nil
    }
}
