import Foundation
internal import COpenSSL

/// Issues X.509 v3 certificates, for the development PKI only (real ones come from Apple).
enum CertificateBuilder {
    /// One extension in OpenSSL's config syntax, e.g. `("basicConstraints", "critical,CA:TRUE")`.
    typealias Extension = (name: String, value: String)

    /// Issues a certificate for `key`'s public key, signed with SHA-256 by `issuer`, or self-signed
    /// when `issuer` is `nil`. `subject` lists name attributes in DER order (short names: `CN`, `UID`).
    /// Extensions are added in order, so a subjectKeyIdentifier must precede a self-signed
    /// certificate's authorityKeyIdentifier.
    static func issue(subject: [(field: String, value: String)], key: PrivateKeyObject, issuer: SigningIdentity?,
                      notBefore: Date, notAfter: Date, extensions: [Extension]) throws -> X509Object {
        OpenSSLGate.begin()
        let fail: (String) -> (String) -> SigningError = { operation in { .certificateCreation(operation: operation, details: $0) } }
        let certificate = X509Object(takingOwnershipOf: try OpenSSLGate.require(X509_new(), fail("X509_new")))
        let x509 = certificate.pointer
        try OpenSSLGate.check(X509_set_version(x509, 2), fail("X509_set_version"))
        try setRandomSerial(x509)

        let name = try OpenSSLGate.require(X509_NAME_new(), fail("X509_NAME_new"))
        defer { X509_NAME_free(name) }
        for (field, value) in subject {
            try OpenSSLGate.check(X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0), fail("subject \(field)=\(value)"))
        }
        try OpenSSLGate.check(X509_set_subject_name(x509, name), fail("X509_set_subject_name"))
        let issuerX509 = issuer?.x509.pointer ?? x509
        try OpenSSLGate.check(X509_set_issuer_name(x509, X509_get_subject_name(issuerX509)), fail("X509_set_issuer_name"))
        try OpenSSLGate.check(X509_set_pubkey(x509, key.pointer), fail("X509_set_pubkey"))

        _ = try OpenSSLGate.require(ASN1_TIME_set(X509_getm_notBefore(x509), time_t(notBefore.timeIntervalSince1970.rounded(.down))), fail("notBefore"))
        _ = try OpenSSLGate.require(ASN1_TIME_set(X509_getm_notAfter(x509), time_t(notAfter.timeIntervalSince1970.rounded(.down))), fail("notAfter"))

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuerX509, x509, nil, nil, 0)
        for (extensionName, value) in extensions {
            let created = try OpenSSLGate.require(X509V3_EXT_nconf(nil, &context, extensionName, value), fail("\(extensionName)=\(value)"))
            defer { X509_EXTENSION_free(created) }
            try OpenSSLGate.check(X509_add_ext(x509, created, -1), fail("X509_add_ext \(extensionName)"))
        }

        let signingKey = issuer?.privateKey.pointer ?? key.pointer
        try OpenSSLGate.check(X509_sign(x509, signingKey, FetchedDigests.shared.sha256), fail("X509_sign"))
        return certificate
    }

    /// A positive 127-bit random serial, as RFC 5280 asks (unique per issuer, at most 20 bytes).
    private static func setRandomSerial(_ x509: OpaquePointer) throws {
        var bytes = SecureRandom.bytes(16)
        bytes[0] &= 0x7F
        let fail: (String) -> SigningError = { .certificateCreation(operation: "serial number", details: $0) }
        let number = try OpenSSLGate.require(BN_bin2bn(bytes, Int32(bytes.count), nil), fail)
        defer { BN_free(number) }
        _ = try OpenSSLGate.require(BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)), fail)
    }
}
