/// Which check a signature failed, so a verifier can report the cause rather than "invalid".
public enum SignatureProblem: Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a DER CMS `ContentInfo`.
    case notDER
    /// The CMS is not SignedData (Wallet wants SignedData only).
    case notSignedData
    /// The CMS embeds its content; a pass signature must be detached from `manifest.json`.
    case notDetached
    /// Wallet expects exactly one signer; the count found is carried.
    case signerCount(Int)
    /// The signer's certificate is not among the certificates in the signature.
    case signerCertificateMissing
    /// The signed attributes carry no `signingTime`, which Wallet requires.
    case missingSigningTime
    /// The signature over the signed attributes does not verify with the signer's key.
    case badSignature
    /// The content's digest differs from the signed `messageDigest`: the content was changed.
    case digestMismatch
    /// The chain from the signer to the trusted roots does not verify; OpenSSL's reason is carried.
    case untrustedChain(String)

    public var description: String {
        switch self {
        case .notDER: return "not a DER-encoded CMS structure"
        case .notSignedData: return "the CMS is not SignedData"
        case .notDetached: return "the signature embeds its content (not detached)"
        case let .signerCount(count): return "expected exactly one signer, found \(count)"
        case .signerCertificateMissing: return "the signer's certificate is not in the signature"
        case .missingSigningTime: return "no signingTime signed attribute"
        case .badSignature: return "the signature over the signed attributes does not verify"
        case .digestMismatch: return "the content digest does not match (content changed since signing)"
        case let .untrustedChain(reason): return "the certificate chain is not trusted: \(reason)"
        }
    }
}
