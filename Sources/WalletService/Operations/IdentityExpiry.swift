import Foundation
import Signing

/// When each pass type's signing certificate expires, read once at start: the `/metrics` gauge,
/// the `/readyz` degradation and the start-up warning all come from here.
///
/// Once a Pass Type ID certificate has expired, Wallet refuses every new pass signed with it and
/// pushes for it stop; renewing takes a new CSR, Apple's portal and a deploy, so operators are told
/// ``Certificate/renewalWindow`` (30 days) ahead.
struct IdentityExpiry: Sendable {
    /// Pass type identifier → the end of its certificate's validity.
    let expiries: [String: Date]

    /// Reads the certificate of every identity folder; one that cannot be loaded is left out here
    /// (its templates already report why they are unavailable).
    init(identities: IdentityDirectory) {
        let passTypes = (try? identities.passTypeIdentifiers()) ?? []
        var expiries: [String: Date] = [:]
        for passType in passTypes {
            if let identity = try? identities.identity(forPassTypeIdentifier: passType) { expiries[passType] = identity.certificate.notAfter }
        }
        self.expiries = expiries
    }

    init(expiries: [String: Date]) {
        self.expiries = expiries
    }

    /// `passwright_identity_expiry_seconds{identity="…"}`: seconds until expiry, negative once expired.
    func gauges(now: Date) -> [(name: String, help: String, value: Double)] {
        expiries.sorted { $0.key < $1.key }.map { passType, notAfter in
            ("passwright_identity_expiry_seconds{identity=\"\(ServiceMetrics.escapeLabel(passType))\"}",
             "Seconds until the pass type's signing certificate expires (negative: expired).", notAfter.timeIntervalSince(now).rounded(.down))
        }
    }

    /// Pass types whose certificate expires within the renewal window (or has expired), each with a
    /// sentence saying when: what `/readyz` lists and the start-up log warns about.
    func renewalsDue(now: Date) -> [String: String] {
        expiries.filter { $0.value.timeIntervalSince(now) < Certificate.renewalWindow }.mapValues { notAfter in
            let days = Int((notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
            let when = notAfter.formatted(.iso8601)
            return notAfter <= now ? "expired on \(when): new passes cannot be signed" : "expires on \(when) (in \(days) days): renew it"
        }
    }
}
