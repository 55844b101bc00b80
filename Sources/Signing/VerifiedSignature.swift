import Foundation

/// What a verified pass signature holds, for `passwright verify` and for tests.
public struct VerifiedSignature: Sendable {
    /// The certificate whose key made the signature (the Pass Type ID certificate).
    public var signer: Certificate
    /// Every certificate embedded in the signature; Wallet needs signer + WWDR intermediate.
    public var certificates: [Certificate]
    /// The signed `signingTime` attribute. Verification fails when it is absent (Wallet requires
    /// it), so after a successful verification it is always set.
    public var signingTime: Date?
    /// The digest algorithm's short OpenSSL name, e.g. `SHA256` or `SHA1`.
    public var digestAlgorithm: String
    /// Whether the signature is detached from its content; verification refuses embedded content.
    public var isDetached: Bool
    /// Whether the chain to the trusted roots was checked; `false` when no roots were given, in
    /// which case only the signature itself was verified.
    public var chainVerified: Bool
}
