import Foundation
internal import COpenSSL

/// Owns one OpenSSL `X509`, freed in `deinit`.
///
/// `@unchecked Sendable`: the handle is never mutated after `init`, and OpenSSL 3 allows concurrent
/// read-only use of an `X509` (reference counts are atomic).
final class X509Object: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Adopts an `X509` whose reference the caller hands over.
    init(takingOwnershipOf pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Parses one DER certificate.
    convenience init(der: Data, source: String) throws {
        OpenSSLGate.begin()
        let parsed = der.withUnsafeBytes { bytes -> OpaquePointer? in
            var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_X509(nil, &cursor, bytes.count)
        }
        self.init(takingOwnershipOf: try OpenSSLGate.require(parsed) {
            .invalidCertificate(source: source, details: $0)
        })
    }

    /// Parses every PEM certificate in `pem`, in order; at least one must be present.
    static func allFromPEM(_ pem: Data, source: String) throws -> [X509Object] {
        OpenSSLGate.begin()
        var objects: [X509Object] = []
        try MemoryBIO.reading(pem) { bio in
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                objects.append(X509Object(takingOwnershipOf: x509))
            }
        }
        guard !objects.isEmpty else {
            throw SigningError.invalidCertificate(source: source, details: OpenSSLGate.drainErrors())
        }
        // The loop ends on "no start line": expected, not an error.
        OpenSSLGate.begin()
        return objects
    }

    /// Adds a reference for another owner (for OpenSSL calls that take ownership).
    func retainedPointer() -> OpaquePointer {
        Self.retaining(pointer)
    }

    /// Adds a reference to a borrowed `X509` so it can be adopted.
    static func retaining(_ pointer: OpaquePointer) -> OpaquePointer {
        X509_up_ref(pointer)
        return pointer
    }

    /// The certificate's DER bytes.
    func der() throws -> Data {
        try OpenSSLGate.require(derEncode { i2d_X509(pointer, $0) }) {
            .invalidCertificate(source: "certificate being encoded", details: $0)
        }
    }

    /// Reads the facts `Certificate` exposes, once.
    func facts() throws -> CertificateFacts {
        let subjectName = X509_get_subject_name(pointer)
        let issuerName = X509_get_issuer_name(pointer)
        guard let subjectName, let issuerName,
              let subjectDER = derEncode({ i2d_X509_NAME(subjectName, $0) }),
              let issuerDER = derEncode({ i2d_X509_NAME(issuerName, $0) }),
              let notBefore = X509_get0_notBefore(pointer).flatMap(date(of:)),
              let notAfter = X509_get0_notAfter(pointer).flatMap(date(of:))
        else {
            throw SigningError.invalidCertificate(source: "certificate", details: "missing names or validity: \(OpenSSLGate.drainErrors())")
        }
        return CertificateFacts(
            subject: oneLine(subjectName),
            issuer: oneLine(issuerName),
            subjectNameDER: subjectDER,
            issuerNameDER: issuerDER,
            serialNumberHex: serialHex(),
            notBefore: notBefore,
            notAfter: notAfter,
            subjectKeyIdentifier: X509_get0_subject_key_id(pointer).map(bytes(of:)),
            authorityKeyIdentifier: X509_get0_authority_key_id(pointer).map(bytes(of:)),
            isCertificateAuthority: X509_get_extension_flags(pointer) & UInt32(EXFLAG_CA) != 0,
            userID: entry(NID_userId, in: subjectName),
            commonName: entry(NID_commonName, in: subjectName),
            organizationalUnit: entry(NID_organizationalUnitName, in: subjectName)
        )
    }

    private func oneLine(_ name: OpaquePointer) -> String {
        let data = try? MemoryBIO.writing { bio in
            _ = X509_NAME_print_ex(bio, name, 0, passwright_XN_FLAG_RFC2253_UTF8())
        }
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private func serialHex() -> String {
        guard let serial = X509_get0_serialNumber(pointer),
              let number = ASN1_INTEGER_to_BN(serial, nil) else { return "" }
        defer { BN_free(number) }
        guard let hex = BN_bn2hex(number) else { return "" }
        defer { passwright_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    private func entry(_ nid: Int32, in name: OpaquePointer) -> String? {
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0,
              let entry = X509_NAME_get_entry(name, index),
              let value = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, value)
        guard length >= 0, let utf8 else { return nil }
        defer { passwright_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }
}

/// Converts an `ASN1_TIME` (UTCTime or GeneralizedTime) to a `Date`.
func date(of time: UnsafePointer<ASN1_TIME>) -> Date? {
    var parts = tm()
    guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
}

/// Copies the bytes of an `ASN1_STRING` (octet strings such as key identifiers).
func bytes(of string: UnsafePointer<ASN1_STRING>) -> Data {
    guard let start = ASN1_STRING_get0_data(string) else { return Data() }
    return Data(bytes: start, count: Int(ASN1_STRING_length(string)))
}
