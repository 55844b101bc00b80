import Foundation

/// Picks the Apple WWDR intermediate that issued a Pass Type ID certificate.
///
/// Apple has several WWDR generations (G1 expired in 2023; G4 issues pass certificates since
/// 2022; G2, G3, G5, G6 never do). Embedding the wrong one makes Wallet report an untrusted chain,
/// so the choice follows the certificates, never a hard-coded generation.
public enum WWDRSelection {
    /// The intermediate whose subject is the signer's issuer and whose Subject Key Identifier is
    /// the signer's Authority Key Identifier (when both are present).
    ///
    /// Throws when the signer is not valid at `date`, when no candidate matches, or when every
    /// matching candidate is invalid at `date`. Among several valid matches the one valid longest
    /// is chosen.
    public static func intermediate(for signer: Certificate, among candidates: [Certificate], at date: Date) throws -> Certificate {
        guard signer.isValid(at: date) else {
            throw SigningError.certificateNotValid(role: "signing certificate", subject: signer.subject,
                                                   notBefore: signer.notBefore, notAfter: signer.notAfter, at: date)
        }
        let issuers = candidates.filter { candidate in
            guard candidate.facts.subjectNameDER == signer.facts.issuerNameDER else { return false }
            guard let keyID = candidate.subjectKeyIdentifier, let wanted = signer.authorityKeyIdentifier else { return true }
            return keyID == wanted
        }
        guard let first = issuers.first else {
            // Same-named intermediates (Apple's and a development CA's, or two WWDR generations) differ
            // only by key, so the message shows the key identifiers that do not match.
            func keyID(_ data: Data?) -> String { data.map { $0.map { String(format: "%02X", $0) }.joined(separator: ":") } ?? "none" }
            throw SigningError.noMatchingIntermediate(
                signerIssuer: "\(signer.issuer), authority key identifier \(keyID(signer.authorityKeyIdentifier))",
                candidates: candidates.map { "\($0.subject), key identifier \(keyID($0.subjectKeyIdentifier))" })
        }
        guard let valid = issuers.filter({ $0.isValid(at: date) }).max(by: { $0.notAfter < $1.notAfter }) else {
            throw SigningError.certificateNotValid(role: "WWDR intermediate", subject: first.subject,
                                                   notBefore: first.notBefore, notAfter: first.notAfter, at: date)
        }
        return valid
    }
}
