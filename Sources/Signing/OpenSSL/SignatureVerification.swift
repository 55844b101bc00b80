import Foundation
internal import COpenSSL

/// Checks a pass `signature` the way Wallet does, one step at a time so a failure names its cause.
public enum SignatureVerification {
    /// Verifies a detached DER CMS signature over `content`.
    ///
    /// Checks, in order: DER CMS, SignedData, detached, one signer whose certificate is embedded,
    /// a signed `signingTime`, the signature over the signed attributes, the content digest, and
    /// (when `trustedRoots` is not empty) the chain from the signer to one of the roots at `date`,
    /// using the embedded certificates as intermediates.
    public static func verify(signature: Data, content: Data, trustedRoots: [Certificate], at date: Date) throws -> VerifiedSignature {
        OpenSSLGate.begin()
        let parsed = signature.withUnsafeBytes { bytes -> OpaquePointer? in
            var cursor = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return d2i_CMS_ContentInfo(nil, &cursor, bytes.count)
        }
        let cms = try OpenSSLGate.require(parsed) { .verificationFailed(.notDER, details: $0) }
        defer { CMS_ContentInfo_free(cms) }

        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed else { throw failure(.notSignedData) }
        guard CMS_is_detached(cms) == 1 else { throw failure(.notDetached) }
        guard let signerInfos = CMS_get0_SignerInfos(cms) else { throw failure(.signerCount(0)) }
        let signerCount = passwright_sk_CMS_SignerInfo_num(signerInfos)
        guard signerCount == 1, let signerInfo = passwright_sk_CMS_SignerInfo_value(signerInfos, 0) else {
            throw failure(.signerCount(Int(signerCount)))
        }

        let embedded = CMS_get1_certs(cms).map(X509Stack.init(takingOwnershipOf:))
        _ = CMS_set1_signers_certs(cms, nil, 0)
        var signerPointer: OpaquePointer?
        var digestAlgorithm: UnsafeMutablePointer<X509_ALGOR>?
        CMS_SignerInfo_get0_algs(signerInfo, nil, &signerPointer, &digestAlgorithm, nil)
        guard let signerPointer, let embedded else { throw failure(.signerCertificateMissing) }
        let signer = X509Object(takingOwnershipOf: X509Object.retaining(signerPointer))

        let signingTime = try signedSigningTime(signerInfo)
        OpenSSLGate.begin()
        guard CMS_SignerInfo_verify(signerInfo) == 1 else { throw failure(.badSignature) }
        try MemoryBIO.reading(content) { bio in
            let flags = UInt32(CMS_BINARY | CMS_NO_SIGNER_CERT_VERIFY | CMS_NO_ATTR_VERIFY)
            guard CMS_verify(cms, nil, nil, bio, nil, flags) == 1 else { throw failure(.digestMismatch) }
        }
        if !trustedRoots.isEmpty {
            try verifyChain(signer: signer, untrusted: embedded, roots: trustedRoots, at: date)
        }

        return VerifiedSignature(
            signer: try Certificate(x509: signer),
            certificates: try embedded.objects.map(Certificate.init(x509:)),
            signingTime: signingTime,
            digestAlgorithm: digestName(digestAlgorithm),
            isDetached: true,
            chainVerified: !trustedRoots.isEmpty
        )
    }

    private static func failure(_ problem: SignatureProblem) -> SigningError {
        .verificationFailed(problem, details: OpenSSLGate.drainErrors())
    }

    private static func signedSigningTime(_ signerInfo: OpaquePointer) throws -> Date {
        let index = CMS_signed_get_attr_by_NID(signerInfo, NID_pkcs9_signingTime, -1)
        guard index >= 0,
              let attribute = CMS_signed_get_attr(signerInfo, index),
              let value = X509_ATTRIBUTE_get0_type(attribute, 0)
        else { throw failure(.missingSigningTime) }
        let type = ASN1_TYPE_get(value)
        guard type == V_ASN1_UTCTIME || type == V_ASN1_GENERALIZEDTIME,
              let raw = X509_ATTRIBUTE_get0_data(attribute, 0, type, nil),
              let time = date(of: raw.assumingMemoryBound(to: ASN1_TIME.self))
        else { throw failure(.missingSigningTime) }
        return time
    }

    private static func verifyChain(signer: X509Object, untrusted: X509Stack, roots: [Certificate], at date: Date) throws {
        let fail: (String) -> SigningError = { .verificationFailed(.untrustedChain("cannot set up verification"), details: $0) }
        let store = try OpenSSLGate.require(X509_STORE_new(), fail)
        defer { X509_STORE_free(store) }
        for root in roots {
            let object = try X509Object(der: root.derBytes, source: "trusted root \(root.subject)")
            try OpenSSLGate.check(X509_STORE_add_cert(store, object.pointer), fail)
        }
        let context = try OpenSSLGate.require(X509_STORE_CTX_new(), fail)
        defer { X509_STORE_CTX_free(context) }
        try OpenSSLGate.check(X509_STORE_CTX_init(context, store, signer.pointer, untrusted.pointer), fail)
        X509_STORE_CTX_set_time(context, 0, time_t(date.timeIntervalSince1970.rounded(.down)))
        guard X509_verify_cert(context) == 1 else {
            let reason = String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
            let at = X509_STORE_CTX_get_current_cert(context).flatMap { try? X509Object(takingOwnershipOf: X509Object.retaining($0)).facts().subject }
            throw failure(.untrustedChain(at.map { "\(reason) (at \($0))" } ?? reason))
        }
    }

    private static func digestName(_ algorithm: UnsafeMutablePointer<X509_ALGOR>?) -> String {
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        guard let object, let name = OBJ_nid2sn(OBJ_obj2nid(object)) else { return "unknown" }
        return String(cString: name)
    }
}
