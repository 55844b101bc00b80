import Foundation
import OrderModel
import PassModel
import Signing
import WalletPackage

/// Turns an `Order` plus its files (images, receipts, return labels, `.lproj` folders) into a signed
/// `.order`: validate → canonical `order.json` → `WalletDocumentSigner` (SHA-256 manifest →
/// detached CMS signature with the Order Type ID certificate and its WWDR intermediate → zip).
///
/// Apple's "Building a distributable order package". The signer is prepared in `init`, so one
/// packager builds many orders, from many tasks at once.
public struct OrderPackager: Sendable {
    private let signer: WalletDocumentSigner
    private let certificate: Certificate

    /// Prepares a packager for `identity` (an Order Type ID certificate and its key), embedding
    /// `intermediate` (the WWDR certificate that issued it; see `WWDRSelection`) in every signature.
    public init(identity: SigningIdentity, intermediate: Certificate) throws(OrderPackageError) {
        do {
            signer = try WalletDocumentSigner(kind: .order, identity: identity, intermediate: intermediate)
        } catch {
            throw .packaging(error)
        }
        certificate = identity.certificate
    }

    /// Checks `order` and `files` (path inside the package → bytes) the way the build does, without
    /// signing: every model error, every missing referenced file and every misplaced file in one
    /// error. Returns the warnings.
    public func validate(_ order: Order, files: [String: Data], at now: Date = Date()) throws(OrderPackageError) -> [ValidationIssue] {
        try validate(order, files: files, decodingIssues: [], at: now)
    }

    /// Builds the signed `.order` of a loaded folder: its decoding problems are reported with every
    /// other problem of the order, in one error, as ``package(_:files:at:)`` reports those.
    public func package(_ source: OrderSource, at now: Date = Date()) throws(OrderPackageError) -> CompiledOrder {
        try package(source.order, files: source.files, decodingIssues: source.issues, at: now)
    }

    private func validate(_ order: Order, files: [String: Data], decodingIssues: [ValidationIssue], at now: Date) throws(OrderPackageError) -> [ValidationIssue] {
        let issues = decodingIssues + order.validate() + OrderFileRules.issues(for: order, paths: Set(files.keys))
        if issues.contains(where: { $0.severity == .error }) { throw .invalidOrder(issues: issues) }
        guard certificate.orderTypeIdentifier == order.orderTypeIdentifier else {
            throw .identityMismatch(message: "order.json orderTypeIdentifier is \(order.orderTypeIdentifier) but the signing certificate is for \(certificate.orderTypeIdentifier ?? "no order type (subject \(certificate.subject))"); Wallet rejects such orders")
        }
        guard certificate.isValid(at: now) else {
            throw .identityMismatch(message: "the signing certificate for \(order.orderTypeIdentifier) is not valid now (valid \(certificate.notBefore) to \(certificate.notAfter)); orders signed with it cannot be added")
        }
        return issues
    }

    /// Builds the signed `.order` for `order` with `files`, signed at `now`.
    public func package(_ order: Order, files: [String: Data], at now: Date = Date()) throws(OrderPackageError) -> CompiledOrder {
        try package(order, files: files, decodingIssues: [], at: now)
    }

    private func package(_ order: Order, files: [String: Data], decodingIssues: [ValidationIssue], at now: Date) throws(OrderPackageError) -> CompiledOrder {
        let warnings = try validate(order, files: files, decodingIssues: decodingIssues, at: now)
        let orderJSON = order.encoded()
        do {
            let documentFiles = try DocumentFiles(kind: .order, files: files.map { ($0.key, $0.value) })
            let signed = try signer.package(payload: orderJSON, files: documentFiles, at: now)
            return CompiledOrder(order: order, orderJSON: orderJSON, manifest: signed.manifest, archive: signed.archive, warnings: warnings)
        } catch {
            throw .packaging(error)
        }
    }
}
