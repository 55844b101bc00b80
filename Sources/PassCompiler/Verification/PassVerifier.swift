import Foundation
import PassModel
import Signing
import WalletPackage

/// Checks a `.pkpass` the way Wallet would before accepting it: the checks every signed Wallet
/// document gets (`WalletDocumentVerifier`: layout, SHA-1 manifest, CMS signature and chain), then
/// the icon, the signer ↔ pass identifiers, and `pass.json` itself.
public enum PassVerifier {
    /// Verifies `archive`. `trustedRoots` are the CA certificates the chain must reach (Apple's root in
    /// production, the dev root in tests); when empty, the signature is checked but the chain is not.
    public static func verify(archive: Data, trustedRoots: [Certificate], at now: Date = Date()) -> VerificationReport {
        var report = VerificationReport()
        guard let contents = WalletDocumentVerifier.verify(
            archive: archive, kind: .pass, trustedRoots: trustedRoots, at: now, layout: iconProblems, into: &report
        ) else { return report }
        checkPass(contents.payload, signer: contents.signer, now: now, into: &report)
        return report
    }

    /// The pass's own layout rule: Wallet cannot add a pass without an icon.
    private static func iconProblems(_ files: [String]) -> (problems: [String], note: String) {
        if !files.contains(where: { ImageName(fileName: String($0.split(separator: "/").last ?? ""))?.slot == "icon" }) {
            return (["no icon.png: Wallet cannot add a pass without an icon"], "")
        }
        return ([], ", icon present")
    }

    private static func checkPass(_ bytes: Data, signer: Certificate?, now: Date, into report: inout VerificationReport) {
        let pass: Pass
        var issues: [ValidationIssue]
        do {
            (pass, issues) = try Pass.decode(bytes)
        } catch {
            report.fail("pass.json", "\(error)")
            return
        }
        // What Wallet accepts with a fallback is a warning here too, as in a build: a pass `build` makes
        // must verify (the lint review still lists those as errors).
        issues = (issues + pass.validate()).map(BuildPolicy.forBuild)
        let errors = issues.filter { $0.severity == .error }
        if errors.isEmpty {
            report.pass("pass.json", "valid \(pass.style?.key ?? "pass") \(pass.serialNumber)")
        } else {
            report.fail("pass.json", errors.map(\.description).joined(separator: "; "))
        }
        for warning in issues where warning.severity != .error {
            report.warn("pass.json", warning.description)
        }
        guard let signer else { return }
        if signer.passTypeIdentifier == pass.passTypeIdentifier && signer.teamIdentifier == pass.teamIdentifier {
            report.pass("identifiers", "pass type \(pass.passTypeIdentifier) and team \(pass.teamIdentifier) match the signing certificate")
        } else {
            report.fail("identifiers", "pass.json says \(pass.passTypeIdentifier) / team \(pass.teamIdentifier) but the certificate is for \(signer.passTypeIdentifier ?? "?") / team \(signer.teamIdentifier ?? "?")")
        }
        report.checkValidity(of: signer, at: now)
    }
}
