import Foundation
internal import COpenSSL

/// Owns one OpenSSL `X509_REQ` (a PKCS#10 certificate signing request), freed in `deinit`.
///
/// Apple's portal issues a Pass Type ID certificate for the public key in an uploaded CSR; the
/// development CA does the same for tests, so both making and reading a request live here.
final class CertificateRequestObject {
    let pointer: OpaquePointer

    /// Adopts an `X509_REQ` whose reference the caller hands over.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_REQ_free(pointer)
    }

    /// A request for `key`'s public key naming `subject` (short names in order: `UID`, `CN`, `OU`),
    /// signed with SHA-256 by `key` to prove its holder has the private key.
    convenience init(subject: [(field: String, value: String)], key: PrivateKeyObject) throws {
        OpenSSLGate.begin()
        let fail: (String) -> (String) -> SigningError = { operation in { .certificateCreation(operation: operation, details: $0) } }
        self.init(takingOwnershipOf: try OpenSSLGate.require(X509_REQ_new(), fail("X509_REQ_new")))
        try OpenSSLGate.check(X509_REQ_set_version(pointer, 0), fail("X509_REQ_set_version"))
        let name = try OpenSSLGate.require(X509_NAME_new(), fail("X509_NAME_new"))
        defer { X509_NAME_free(name) }
        for (field, value) in subject {
            try OpenSSLGate.check(X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0), fail("subject \(field)=\(value)"))
        }
        try OpenSSLGate.check(X509_REQ_set_subject_name(pointer, name), fail("X509_REQ_set_subject_name"))
        try OpenSSLGate.check(X509_REQ_set_pubkey(pointer, key.pointer), fail("X509_REQ_set_pubkey"))
        try OpenSSLGate.check(X509_REQ_sign(pointer, key.pointer, FetchedDigests.shared.sha256), fail("X509_REQ_sign"))
    }

    /// Reads a PEM request and checks its self-signature, so a damaged upload is refused up front.
    convenience init(pem: Data, source: String) throws {
        OpenSSLGate.begin()
        let parsed = try MemoryBIO.reading(pem) { PEM_read_bio_X509_REQ($0, nil, nil, nil) }
        self.init(takingOwnershipOf: try OpenSSLGate.require(parsed) {
            .invalidCertificate(source: source, details: "not a PEM certificate signing request: \($0)")
        })
        let key = try publicKey(source: source)
        try OpenSSLGate.check(X509_REQ_verify(pointer, key.pointer)) {
            .invalidCertificate(source: source, details: "the request's signature does not verify: \($0)")
        }
    }

    /// The PEM form Apple's portal accepts (`-----BEGIN CERTIFICATE REQUEST-----`).
    func pem() throws -> Data {
        OpenSSLGate.begin()
        return try MemoryBIO.writing { bio in
            try OpenSSLGate.check(PEM_write_bio_X509_REQ(bio, pointer)) { .certificateCreation(operation: "PEM_write_bio_X509_REQ", details: $0) }
        }
    }

    /// The requested public key (an `EVP_PKEY` without its private half).
    func publicKey(source: String) throws -> PrivateKeyObject {
        PrivateKeyObject(takingOwnershipOf: try OpenSSLGate.require(X509_REQ_get_pubkey(pointer)) {
            .invalidCertificate(source: source, details: "the request holds no public key: \($0)")
        })
    }

    /// The requested subject as (short name, value) pairs in DER order.
    func subject() -> [(field: String, value: String)] {
        guard let name = X509_REQ_get_subject_name(pointer) else { return [] }
        return (0..<X509_NAME_entry_count(name)).compactMap { index in
            guard let entry = X509_NAME_get_entry(name, index),
                  let field = OBJ_nid2sn(OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry))),
                  let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            guard length >= 0, let utf8 else { return nil }
            defer { passwright_OPENSSL_free(utf8) }
            return (String(cString: field), String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self))
        }
    }
}
