import Foundation
internal import COpenSSL

/// A Pass Type ID certificate with its private key, parsed once so that signing stays cheap.
///
/// The same identity signs passes and authenticates to APNs. Loading checks that the key belongs
/// to the certificate, so a mismatch shows at start-up rather than as a pass Wallet refuses.
public struct SigningIdentity: Sendable {
    /// The signer certificate (its facts name the pass type and team it may sign for).
    public let certificate: Certificate
    let x509: X509Object
    let privateKey: PrivateKeyObject

    /// Reads a PEM certificate and a PEM private key (PKCS#8 or traditional, optionally encrypted).
    ///
    /// - Parameter passphrase: opens an encrypted key; `nil` when the key is not encrypted.
    public init(certificatePEM: Data, privateKeyPEM: Data, passphrase: String?) throws {
        try self.init(certificatePEM: certificatePEM, certificateSource: "certificate PEM",
                      privateKeyPEM: privateKeyPEM, keySource: "private key PEM", passphrase: passphrase)
    }

    /// The certificate as PEM or DER (a DER file named `certificate.pem`, or Apple's `pass.cer`).
    init(certificatePEMOrDER certificate: Data, certificateSource: String,
         privateKeyPEM: Data, keySource: String, passphrase: String?) throws {
        let x509 = certificate.range(of: Data("-----BEGIN".utf8)) != nil
            ? try X509Object.allFromPEM(certificate, source: certificateSource)[0]
            : try X509Object(der: certificate, source: certificateSource)
        let key = try PrivateKeyObject(pem: privateKeyPEM, passphrase: passphrase, source: keySource)
        try self.init(x509: x509, privateKey: key, source: keySource)
    }

    init(certificatePEM: Data, certificateSource: String,
         privateKeyPEM: Data, keySource: String, passphrase: String?) throws {
        let x509 = try X509Object.allFromPEM(certificatePEM, source: certificateSource)[0]
        let key = try PrivateKeyObject(pem: privateKeyPEM, passphrase: passphrase, source: keySource)
        try self.init(x509: x509, privateKey: key, source: keySource)
    }

    /// Reads a PKCS#12 (`.p12`) file, including Keychain exports with legacy RC2-40/3DES encryption.
    public init(pkcs12: Data, password: String?) throws {
        try self.init(pkcs12: pkcs12, password: password, source: "PKCS#12 data")
    }

    init(pkcs12 data: Data, password: String?, source: String) throws {
        let legacyLoaded = OpenSSLProviders.legacyLoaded
        OpenSSLGate.begin()
        let parsed = data.withUnsafeBytes { bytes -> OpaquePointer? in
            var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_PKCS12(nil, &cursor, bytes.count)
        }
        let p12 = try OpenSSLGate.require(parsed) { .invalidPKCS12(source: source, details: $0) }
        defer { PKCS12_free(p12) }

        if PKCS12_mac_present(p12) == 1 {
            let opens: (String?) -> Bool = { candidate in
                PKCS12_verify_mac(p12, candidate, Int32(candidate?.utf8.count ?? 0)) == 1
            }
            let macVerified = password.map(opens) ?? (opens(nil) || opens(""))
            guard macVerified else {
                let details = OpenSSLGate.drainErrors()
                if password == nil { throw SigningError.passphraseRequired(source: source) }
                throw SigningError.wrongPassphrase(source: source, details: details)
            }
        }
        OpenSSLGate.begin()
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        let parsedOK = PKCS12_parse(p12, password, &key, &certificate, nil) == 1
        guard parsedOK, let key, let certificate else {
            if let key { EVP_PKEY_free(key) }
            if let certificate { X509_free(certificate) }
            let hint = legacyLoaded ? "" : " (OpenSSL's legacy provider is not available: RC2/3DES .p12 files cannot be read)"
            throw SigningError.invalidPKCS12(source: source, details: OpenSSLGate.drainErrors() + hint)
        }
        try self.init(x509: X509Object(takingOwnershipOf: certificate),
                      privateKey: PrivateKeyObject(takingOwnershipOf: key), source: source)
    }

    init(x509: X509Object, privateKey: PrivateKeyObject, source: String) throws {
        OpenSSLGate.begin()
        try OpenSSLGate.check(X509_check_private_key(x509.pointer, privateKey.pointer)) {
            .keyDoesNotMatchCertificate(source: source, details: $0)
        }
        self.certificate = try Certificate(x509: x509)
        self.x509 = x509
        self.privateKey = privateKey
    }
}

extension SigningIdentity {
    /// The certificate and its private key as unencrypted PEM, in memory, for a TLS client that needs
    /// them as bytes (APNs over libcurl authenticates with the very identity that signs the passes).
    ///
    /// `unsafe` because the key leaves its encryption: keep the bytes in memory, never write or log them.
    public func unsafeUnencryptedPEM() throws -> (certificate: Data, privateKey: Data) {
        (Data(certificate.pem.utf8), try privateKey.unencryptedPKCS8PEM())
    }
}
