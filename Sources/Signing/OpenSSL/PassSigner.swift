import Foundation
internal import COpenSSL

/// Signs `manifest.json` bytes the way Wallet requires: a detached, DER-encoded CMS SignedData.
///
/// Everything that can be prepared is prepared in `init` (parsed key and certificate, the stack
/// holding the WWDR intermediate), because `sign` is the hot path of batch builds. One signer may
/// be used from many tasks at once: it holds only immutable OpenSSL objects.
public struct PassSigner: Sendable {
    private let identity: SigningIdentity
    private let intermediates: X509Stack

    /// Prepares a signer for `identity`, embedding `intermediate` (the WWDR certificate that issued
    /// it; see `WWDRSelection`) in every signature, as Wallet needs the chain inside the pass.
    public init(identity: SigningIdentity, intermediate: Certificate) throws {
        self.identity = identity
        self.intermediates = try X509Stack([X509Object(der: intermediate.derBytes, source: "WWDR intermediate")])
    }

    /// Returns the `signature` file for `content` (the exact `manifest.json` bytes).
    ///
    /// SHA-256 with the identity's key; signed attributes contentType, messageDigest and
    /// signingTime (Wallet requires signingTime); certificates signer + intermediate; signer
    /// identified by issuer and serial number.
    public func sign(_ content: Data, signingTime: Date) throws -> Data {
        OpenSSLGate.begin()
        let flags = UInt32(CMS_DETACHED | CMS_BINARY | CMS_PARTIAL)
        let cms = try OpenSSLGate.require(CMS_sign(nil, nil, intermediates.pointer, nil, flags)) {
            .signingFailed(operation: "CMS_sign", details: $0)
        }
        defer { CMS_ContentInfo_free(cms) }

        let signerInfo = try OpenSSLGate.require(
            CMS_add1_signer(cms, identity.x509.pointer, identity.privateKey.pointer,
                            FetchedDigests.shared.sha256, UInt32(CMS_BINARY | CMS_NOSMIMECAP))
        ) { .signingFailed(operation: "CMS_add1_signer", details: $0) }

        let time = try OpenSSLGate.require(ASN1_TIME_set(nil, time_t(signingTime.timeIntervalSince1970.rounded(.down)))) {
            .signingFailed(operation: "ASN1_TIME_set (signing time \(signingTime))", details: $0)
        }
        defer { ASN1_TIME_free(time) }
        try OpenSSLGate.check(CMS_signed_add1_attr_by_NID(signerInfo, NID_pkcs9_signingTime, ASN1_STRING_type(time), time, -1)) {
            .signingFailed(operation: "CMS_signed_add1_attr_by_NID (signingTime)", details: $0)
        }

        try MemoryBIO.reading(content) { bio in
            try OpenSSLGate.check(CMS_final(cms, bio, nil, flags)) { .signingFailed(operation: "CMS_final", details: $0) }
        }
        return try OpenSSLGate.require(derEncode { i2d_CMS_ContentInfo(cms, $0) }) {
            .signingFailed(operation: "i2d_CMS_ContentInfo", details: $0)
        }
    }
}
