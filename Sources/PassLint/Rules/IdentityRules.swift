import Foundation
import PassModel
import Signing

/// The signing certificate against the pass (Apple's "Building a Pass": signing): Wallet rejects a pass whose pass type
/// or team differ from its signer's, and no new pass can be added once the certificate has expired.
enum IdentityRules {
    static func findings(pass: Pass, certificate: Certificate, intermediates: [Certificate], now: Date) -> [Finding] {
        var findings: [Finding] = []
        let refused = "Wallet refuses every pass signed this way: the holder sees \"Sorry, your pass cannot be installed\"."
        if certificate.passTypeIdentifier != pass.passTypeIdentifier {
            findings.append(Finding(
                rule: "certificate.passTypeIdentifier", severity: .error, location: "pass.json passTypeIdentifier",
                before: JSONTree.member("passTypeIdentifier", .string(pass.passTypeIdentifier)),
                after: JSONTree.member("passTypeIdentifier", .string(certificate.passTypeIdentifier ?? "")) + " (or sign with that pass type's certificate)",
                effect: refused))
        }
        if certificate.teamIdentifier != pass.teamIdentifier {
            findings.append(Finding(
                rule: "certificate.teamIdentifier", severity: .error, location: "pass.json teamIdentifier",
                before: JSONTree.member("teamIdentifier", .string(pass.teamIdentifier)),
                after: JSONTree.member("teamIdentifier", .string(certificate.teamIdentifier ?? "")),
                effect: refused))
        }
        let validity = "valid \(timestamp(certificate.notBefore)) to \(timestamp(certificate.notAfter))"
        if !certificate.isValid(at: now) {
            findings.append(Finding(
                rule: "certificate.expired", severity: .error, location: "certificate (\(certificate.passTypeIdentifier ?? certificate.subject))",
                before: validity, after: "a renewed Pass Type ID certificate from the Apple Developer portal",
                effect: "New holders can add the pass again; with an expired or not-yet-valid certificate Wallet refuses it."))
        } else if certificate.needsRenewal(at: now) {
            findings.append(Finding(
                rule: "certificate.expiresSoon", severity: .warning, location: "certificate (\(certificate.passTypeIdentifier ?? certificate.subject))",
                before: validity, after: "renew before \(timestamp(certificate.notAfter))",
                effect: "Passes keep being issued without a day on which nobody can add one."))
        }
        if !intermediates.isEmpty, certificate.isValid(at: now) {
            do {
                _ = try WWDRSelection.intermediate(for: certificate, among: intermediates, at: now)
            } catch {
                findings.append(Finding(
                    rule: "certificate.wwdr", severity: .error, location: "wwdr/", before: "\(error)",
                    after: "the Apple WWDR intermediate that issued the certificate (G4 for certificates since 2022)",
                    effect: "Wallet can verify the signature chain; with the wrong intermediate it reports the pass as untrusted and refuses it."))
            }
        }
        return findings
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
