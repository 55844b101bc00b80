import Foundation
import OrderModel
import PassModel
import Signing
import WalletPackage

/// Checks a `.order` the way Wallet would before accepting it: the checks every signed Wallet
/// document gets (`WalletDocumentVerifier`: layout, SHA-256 manifest, nothing unlisted, CMS
/// signature and chain), then `order.json` decoding and validating, every file it names present,
/// and the signer's Order Type ID matching `orderTypeIdentifier`.
public enum OrderVerifier {
    /// Verifies `archive`. `trustedRoots` are the CA certificates the chain must reach (Apple's root in
    /// production, the dev root in tests); when empty, the signature is checked but the chain is not.
    public static func verify(archive: Data, trustedRoots: [Certificate], at now: Date = Date()) -> VerificationReport {
        var report = VerificationReport()
        guard let contents = WalletDocumentVerifier.verify(
            archive: archive, kind: .order, trustedRoots: trustedRoots, at: now, layout: { _ in ([], "") }, into: &report
        ) else { return report }
        let order: Order
        var issues: [ValidationIssue]
        do {
            (order, issues) = try Order.decode(contents.payload)
        } catch {
            report.fail("order.json", "\(error)")
            return report
        }
        let packaged = Set(contents.files).subtracting(WalletDocumentKind.signatureFiles.union([WalletDocumentKind.order.payloadFile]))
        issues += order.validate() + OrderFileRules.issues(for: order, paths: packaged)
        let errors = issues.filter { $0.severity == .error }
        if errors.isEmpty {
            report.pass("order.json", "valid order \(order.orderIdentifier) of \(order.orderTypeIdentifier)")
        } else {
            report.fail("order.json", errors.map(\.description).joined(separator: "; "))
        }
        for warning in issues where warning.severity != .error {
            report.warn("order.json", warning.description)
        }
        guard let signer = contents.signer else { return report }
        if signer.orderTypeIdentifier == order.orderTypeIdentifier {
            report.pass("identifiers", "order type \(order.orderTypeIdentifier) matches the signing certificate")
        } else {
            report.fail("identifiers", "order.json says \(order.orderTypeIdentifier) but the certificate is for \(signer.orderTypeIdentifier ?? "no order type (subject \(signer.subject))")")
        }
        report.checkValidity(of: signer, at: now)
        return report
    }
}
