import Foundation
import Signing

/// When each pass type's signing certificate expires, read once at start: the `/metrics` gauge,
/// the `/readyz` degradation and the start-up warning all come from here.
///
/// Once a Pass Type ID certificate has expired, Wallet refuses every new pass signed with it and
/// pushes for it stop; renewing takes a new CSR, Apple's portal and a deploy, so operators are told
/// ``Certificate/renewalWindow`` (30 days) ahead.
public struct IdentityExpiry: Sendable {
    /// Pass type identifier → its signing certificate.
    public let certificates: [String: Certificate]

    /// Reads the certificate of every identity folder; one that cannot be loaded is left out here
    /// (its templates already report why they are unavailable).
    init(identities: IdentityDirectory) {
        var certificates: [String: Certificate] = [:]
        for passType in (try? identities.passTypeIdentifiers()) ?? [] {
            certificates[passType] = try? identities.identity(forPassTypeIdentifier: passType).certificate
        }
        self.certificates = certificates
    }

    /// Seconds until each pass type's certificate expires, negative once expired: the
    /// `passwright_identity_expiry_seconds` gauge, which the HTTP layer names and formats.
    public func secondsUntilExpiry(now: Date) -> [(passType: String, seconds: Double)] {
        certificates.sorted { $0.key < $1.key }.map { ($0.key, $0.value.notAfter.timeIntervalSince(now).rounded(.down)) }
    }

    /// Pass types whose certificate expires within the renewal window (or has expired), each with a
    /// sentence saying when: what `/readyz` lists and the start-up log warns about.
    public func renewalsDue(now: Date) -> [String: String] {
        certificates.filter { $0.value.needsRenewal(at: now) }.mapValues { certificate in
            let days = Int((certificate.notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
            let when = certificate.notAfter.formatted(.iso8601)
            return certificate.notAfter <= now ? "expired on \(when): new passes cannot be signed" : "expires on \(when) (in \(days) days): renew it"
        }
    }
}
