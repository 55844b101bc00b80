import Foundation
internal import COpenSSL

/// Owns one OpenSSL `EVP_PKEY`, freed in `deinit`.
///
/// `@unchecked Sendable`: the key is never mutated after `init`; OpenSSL 3 allows one `EVP_PKEY` to
/// sign from several threads at once (each operation gets its own `EVP_PKEY_CTX`).
final class PrivateKeyObject: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Adopts an `EVP_PKEY` whose reference the caller hands over.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Reads a PEM private key: PKCS#8 (plain or encrypted) or traditional (plain or encrypted).
    ///
    /// The passphrase reaches OpenSSL through a callback, never a command line or environment, and
    /// the callback records whether OpenSSL asked, which tells "wrong passphrase" from "not a key".
    convenience init(pem: Data, passphrase: String?, source: String) throws {
        OpenSSLGate.begin()
        let request = PassphraseRequest(passphrase: passphrase)
        let key = try withExtendedLifetime(request) {
            try MemoryBIO.reading(pem) { bio in
                PEM_read_bio_PrivateKey(bio, nil, providePassphrase, Unmanaged.passUnretained(request).toOpaque())
            }
        }
        guard let key else {
            let details = OpenSSLGate.drainErrors()
            switch (request.wasAsked, passphrase) {
            case (true, nil): throw SigningError.passphraseRequired(source: source)
            case (true, _?): throw SigningError.wrongPassphrase(source: source, details: details)
            case (false, _): throw SigningError.invalidPrivateKey(source: source, details: details)
            }
        }
        self.init(takingOwnershipOf: key)
    }

    /// Generates a fresh RSA key (development PKI only).
    static func generateRSA(bits: Int32) throws -> PrivateKeyObject {
        OpenSSLGate.begin()
        let fail: (String) -> SigningError = { .certificateCreation(operation: "RSA-\(bits) key generation", details: $0) }
        let context = try OpenSSLGate.require(EVP_PKEY_CTX_new_from_name(nil, "RSA", nil), fail)
        defer { EVP_PKEY_CTX_free(context) }
        try OpenSSLGate.check(EVP_PKEY_keygen_init(context), fail)
        try OpenSSLGate.check(EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits), fail)
        var key: OpaquePointer?
        try OpenSSLGate.check(EVP_PKEY_generate(context, &key), fail)
        return PrivateKeyObject(takingOwnershipOf: try OpenSSLGate.require(key, fail))
    }

    /// The key size in bits (2048 for the RSA keys Apple's portal asks for).
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// The key as PKCS#8 PEM encrypted with AES-256-CBC under `passphrase`, so a copied file alone
    /// cannot sign passes. The passphrase is handed to OpenSSL as bytes, never through a command line.
    func encryptedPKCS8PEM(passphrase: String) throws -> Data {
        OpenSSLGate.begin()
        let cipher = try OpenSSLGate.require(EVP_CIPHER_fetch(nil, "AES-256-CBC", nil)) {
            .certificateCreation(operation: "EVP_CIPHER_fetch AES-256-CBC", details: $0)
        }
        defer { EVP_CIPHER_free(cipher) }
        var bytes = Array(passphrase.utf8).map { CChar(bitPattern: $0) }
        defer { _ = bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        return try MemoryBIO.writing { bio in
            try OpenSSLGate.check(PEM_write_bio_PKCS8PrivateKey(bio, pointer, cipher, &bytes, Int32(bytes.count), nil, nil)) {
                .certificateCreation(operation: "PEM_write_bio_PKCS8PrivateKey", details: $0)
            }
        }
    }

    /// The key as PEM: encrypted when a passphrase is given, else plain (for 0600 files only).
    func pem(passphrase: String?) throws -> Data {
        try passphrase.map(encryptedPKCS8PEM(passphrase:)) ?? unencryptedPKCS8PEM()
    }

    /// The key as unencrypted PKCS#8 PEM, for the development PKI's 0600 files only.
    func unencryptedPKCS8PEM() throws -> Data {
        OpenSSLGate.begin()
        return try MemoryBIO.writing { bio in
            try OpenSSLGate.check(PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)) {
                .certificateCreation(operation: "PEM_write_bio_PrivateKey", details: $0)
            }
        }
    }
}

/// What the passphrase callback reads and reports; lives only for one `PEM_read_bio_PrivateKey`.
private final class PassphraseRequest {
    let passphrase: [UInt8]?
    var wasAsked = false

    init(passphrase: String?) {
        self.passphrase = passphrase.map { Array($0.utf8) }
    }
}

/// OpenSSL's `pem_password_cb`: copies the passphrase into OpenSSL's buffer (a global function, as
/// C callbacks must be).
private func providePassphrase(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let buffer, let context else { return -1 }
    let request = Unmanaged<PassphraseRequest>.fromOpaque(context).takeUnretainedValue()
    request.wasAsked = true
    guard let passphrase = request.passphrase, passphrase.count <= Int(size) else { return -1 }
    passphrase.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
    }
    return Int32(passphrase.count)
}
